// The kit's console progress while Cucumber runs (conformance/cli.ts names it as Cucumber's stdout formatter): one
// character per scenario as it finishes, `.` when no step failed and `F` when one did, 80 to a line, and no totals.
// Cucumber's own totals count step statuses, which are not the kit's verdict (a scenario that stopped at an
// undeclared value shows as passed steps there); conformance/lib/report.ts prints the verdict after the run.
export default {
  type: 'formatter',
  formatter({ on, write }) {
    const failed = new Set();
    let column = 0;
    on('message', (envelope) => {
      if (envelope.testStepFinished && envelope.testStepFinished.testStepResult.status === 'FAILED') failed.add(envelope.testStepFinished.testCaseStartedId);
      else if (envelope.testCaseFinished && !envelope.testCaseFinished.willBeRetried) {
        write(failed.has(envelope.testCaseFinished.testCaseStartedId) ? 'F' : '.');
        if (++column % 80 === 0) write('\n');
      } else if (envelope.testRunFinished && column % 80 !== 0) write('\n');
    });
  },
};
