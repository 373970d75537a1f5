// A step that needs a value the target did not declare throws NotDeclared (rule kit-judges-by-source). This
// wrapper, around every step, turns that into a "not checked" note instead of a failure and skips the rest of
// the scenario, whose later steps depend on what that step would have done. Hooks are never skipped. The step
// reports itself skipped, so Cucumber skips the steps after it and its own reports (cucumber.html, the progress
// line) show where the scenario stopped; conformance/lib/report.ts never counts such a scenario as passed. The
// wrapper also runs each step recording its HTTP exchanges (conformance/lib/transcript.ts).
import { setDefinitionFunctionWrapper } from '@cucumber/cucumber';
import { NotDeclared } from '../../conformance/lib/declaration.js';
import { FixturesPartMissing } from '../../conformance/lib/fixtures-client.js';
import { recordingInto } from '../../conformance/lib/transcript.js';
import { HOOK } from './hook.js';
import type { SiteWorld } from './world.js';

setDefinitionFunctionWrapper((fn: ((this: SiteWorld, ...args: unknown[]) => unknown) & { [HOOK]?: true }) => {
  if (fn[HOOK]) return fn;
  return async function (this: SiteWorld, ...args: unknown[]) {
    if (this.notDeclared) return undefined;
    try {
      // Every exchange the step makes goes into its scenario's log, for a transcript if it fails (support/transcript.ts).
      return await recordingInto(this.exchanges, () => fn.apply(this, args));
    } catch (error) {
      const what = error instanceof NotDeclared ? error.what : error instanceof FixturesPartMissing ? error.message : undefined;
      if (what === undefined) throw error;
      this.notDeclared = what;
      this.notChecked(`${what}: the rest of the scenario`);
      return 'skipped';
    }
  };
});
