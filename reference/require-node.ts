// Imported first by `npm start` (package.json engines: node >=22): one sentence and exit 2 on an older Node,
// instead of a failure later inside a dependency.
if (Number(process.versions.node.split('.')[0]) < 22) {
  console.error(`the reference server needs Node 22 or newer and this is Node ${process.versions.node}: install a newer Node.`);
  process.exit(2);
}

// Node's on-disk compile cache (V8 code of every module loaded after this line, keyed by Node version and source),
// as the kit's commands have it (conformance/lib/require-node.ts): `npm test` starts about twenty reference servers,
// each loading Koa, oidc-provider, the MCP SDK, zod and Ajv. NODE_COMPILE_CACHE names another directory;
// NODE_DISABLE_COMPILE_CACHE turns it off.
const { default: module } = await import('node:module');
if (module.enableCompileCache && !process.env.NODE_DISABLE_COMPILE_CACHE) module.enableCompileCache(process.env.NODE_COMPILE_CACHE);
