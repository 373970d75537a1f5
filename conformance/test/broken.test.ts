// The table of broken servers (conformance/broken/index.ts) holds together: each breaks a rule of the catalogue that
// some check names, leaves out only steps the call path has, and serve.ts refuses a rule it cannot break with one
// sentence and exit 2. prove-checks.ts shows each one caught.
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { CALL_STEPS } from '../../reference/mcp/pipeline.js';
import { ruleIds } from '../../spec/index.js';
import { BROKEN } from '../broken/index.js';
import { startBroken } from '../broken/start.js';
import type { CaptureEngine } from '../../reference/infra/capture.js';
import { rulesNamedInSuite } from '../lib/report.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

describe('broken servers', () => {
  it('break only catalogue rules that a scenario or property checks', () => {
    const ids = ruleIds();
    const { features, properties } = rulesNamedInSuite(repo);
    for (const rule of Object.keys(BROKEN)) {
      expect(ids.has(rule), rule).toBe(true);
      expect(features.has(rule) || properties.has(rule), `${rule} has no check`).toBe(true);
    }
  });

  it('leave out only steps of the call path', () => {
    const steps = new Set(CALL_STEPS.map((step) => step.rule));
    for (const [rule, server] of Object.entries(BROKEN)) for (const step of server.omitSteps ?? []) expect(steps.has(step), `${rule}: ${step}`).toBe(true);
  });

  it('refuse a rule they cannot break: one sentence, exit 2', () => {
    const run = spawnSync(process.execPath, ['--import', 'tsx/esm', 'conformance/broken/serve.ts', '--break', 'no-such-rule'], { cwd: repo, encoding: 'utf8', env: { ...process.env, NODE_OPTIONS: '' } });
    expect(run.status).toBe(2);
    expect(run.stderr.trim().split('\n')).toHaveLength(1);
    expect(run.stderr).toContain('no-such-rule');
  });

  it('borrow the capture engine prove-checks shares between them: a server that stops leaves it open for the next', async () => {
    // One Chromium for every broken server of a prove-checks run. Were the engine handed over as it is,
    // the first server to stop would close it and every later migration would find no browser.
    let closed = 0;
    const engine: CaptureEngine = { capture: () => Promise.reject(new Error('not used here')), available: async () => true, close: async () => void closed++ };
    for (const rule of ['scope-ceiling', 'migrate-capture-then-typed']) {
      const server = await startBroken([rule], { capture: engine });
      await server.stop();
    }
    expect(closed).toBe(0);
  });
});
