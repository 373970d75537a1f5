// Imported first by every kit command (package.json engines: node >=22). On an older Node the run would fail
// minutes later deep inside a dependency (Cucumber's glob on Node 20); one sentence and exit 2 up front instead.
const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  console.error(`site-mcp needs Node 22 or newer and this is Node ${process.versions.node}: install a newer Node, or run \`bash .ci/run\`, which fetches Node 24.`);
  process.exit(2);
}
