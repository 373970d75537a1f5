// Imported first by `npm start` (package.json engines: node >=22): one sentence and exit 2 on an older Node,
// instead of a failure later inside a dependency.
if (Number(process.versions.node.split('.')[0]) < 22) {
  console.error(`the reference server needs Node 22 or newer and this is Node ${process.versions.node}: install a newer Node.`);
  process.exit(2);
}
