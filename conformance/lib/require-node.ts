// Imported first by every kit command (package.json engines: node >=22). On an older Node the run would fail
// minutes later deep inside a dependency (Cucumber's glob on Node 20); one sentence and exit 2 up front instead.
import module from 'node:module';

const major = Number(process.versions.node.split('.')[0]);
if (major < 22) {
  console.error(`site-mcp needs Node 22 or newer and this is Node ${process.versions.node}: install a newer Node, or run \`bash .ci/run\`, which fetches Node 24.`);
  process.exit(2);
}

// Node's on-disk compile cache (V8 code of every module loaded after this line, keyed by Node version and source): a
// conformance run loads Cucumber, the TypeScript steps and their libraries in the CLI and again in every Cucumber
// worker thread; a warm cache spares each of them compiling it all again. Worker threads and child processes started
// later read NODE_COMPILE_CACHE, so it is set for them; one already set is kept, and NODE_DISABLE_COMPILE_CACHE turns
// it off.
if (module.enableCompileCache && !process.env.NODE_DISABLE_COMPILE_CACHE) {
  const { directory } = module.enableCompileCache(process.env.NODE_COMPILE_CACHE);
  if (directory) process.env.NODE_COMPILE_CACHE ??= directory;
}
