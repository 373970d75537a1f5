// Cucumber configuration of the conformance features (the `default` profile leaves out @wip scenarios; the
// `wip` profile runs them too). Normally used through `npm run conformance` (conformance/cli.ts), which starts
// or reaches the target once, passes it to the steps as SITE_MCP_URL and SITE_MCP_FIXTURES_SECRET, sets
// NODE_OPTIONS=--import tsx/esm so parallel workers load the TypeScript steps (--parallel 1 runs them in its own
// process), writes this file's message stream into its --report-dir, and prints the per-rule report.
// Direct use against a running target:
//   SITE_MCP_URL=… SITE_MCP_FIXTURES_SECRET=… NODE_OPTIONS='--import tsx' npx cucumber-js
const common = {
  paths: ['features/**/*.feature'],
  import: ['features/support/**/*.ts', 'features/steps/**/*.ts'],
  format: ['progress', 'message:reports/cucumber-messages.ndjson'],
  strict: true,
  parallel: 2,
};

export default { ...common, tags: 'not @wip' };
export const wip = common;
