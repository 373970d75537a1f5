// The house rules of AGENTS.md and ../shared/design/architecture.md, held by a tool rather than by review:
// `npm run depcruise` (part of npm test). Violations that predate a rule are recorded in
// .dependency-cruiser-known-violations.json (`npm run depcruise -- --baseline` rewrites it); a new one fails, and the
// list may only shrink as the layers are mended.
// The two modules of auth/ that the domain may import (rule auth-primitives-stand-alone below).
const AUTH_PRIMITIVES = '^reference/auth/(tokens|passwords)\\.ts$';

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'no-cycles',
      severity: 'error',
      comment: 'An import cycle ties modules that should stand apart; one composition root hands each layer its ports instead.' +
        ' Imports of types count too: at run time none of these cycles exists, but each ties a layer to what it should not know.',
      from: {},
      to: { circular: true },
    },
    {
      name: 'kit-never-imports-reference',
      severity: 'error',
      comment: 'Black box: features/ and conformance/ judge any implementation over HTTP, so they never import reference/ (except the broken servers, compositions of it, and the tests that start them).',
      from: { path: '^(features|conformance)/', pathNot: '^conformance/(broken|test|variants)/|^conformance/prove-checks\\.ts$' },
      to: { path: '^reference/' },
    },
    {
      name: 'reference-never-imports-kit',
      severity: 'error',
      comment: 'The reference knows nothing of breaking a rule or of the kit that checks it.',
      from: { path: '^reference/', pathNot: '^reference/test/' },
      to: { path: '^(conformance|features)/' },
    },
    {
      name: 'tools-import-no-tool',
      severity: 'error',
      comment: 'A tool handler holds its own business logic; what two tools share lives in domain/.',
      from: { path: '^reference/tools/([^/]+)\\.ts$', pathNot: '^reference/tools/(index|types)\\.ts$' },
      to: { path: '^reference/tools/', pathNot: '^reference/tools/types\\.ts$' },
    },
    {
      name: 'domain-imports-no-http',
      severity: 'error',
      comment: 'Domain rules never reach for HTTP: routes call the domain, not the other way round.',
      from: { path: '^reference/domain/' },
      to: { path: '^reference/(api|web|mcp|auth)/|^(koa|@koa/router|koa-mount)$', pathNot: AUTH_PRIMITIVES },
    },
    {
      name: 'auth-primitives-stand-alone',
      severity: 'error',
      comment: 'auth/tokens.ts and auth/passwords.ts mint and hash the secrets the domain stores (a connection\'s token, a' +
        ' user\'s password): the domain may use them because they import nothing of the reference, so they sit below every layer.',
      from: { path: AUTH_PRIMITIVES },
      to: { path: '^reference/' },
    },
    {
      name: 'no-import-up-the-layers',
      severity: 'error',
      comment: 'The reference in layers, lowest first: infra/ (the store, fetching, capture, dns, images, the clock), domain/ (the rules), tools/ (one handler' +
        ' per tool), then the edges that serve them (mcp/, api/, web/, auth/; the token and password primitives of auth/ stand apart, below all) and the composition root (app.ts, main.ts,' +
        ' services.ts). A layer imports only from below it; an edge takes what it needs from the domain, never from a tool.',
      from: { path: '^reference/(infra|domain|tools)/' },
      to: { path: '^reference/(mcp|api|web|auth|testing)/|^reference/(app|main|services|seed)\\.ts$', pathNot: AUTH_PRIMITIVES },
    },
    {
      name: 'no-import-up-the-layers',
      severity: 'error',
      from: { path: '^reference/(infra|domain)/' },
      to: { path: '^reference/tools/' },
    },
    {
      name: 'no-import-up-the-layers',
      severity: 'error',
      from: { path: '^reference/infra/' },
      to: { path: '^reference/domain/' },
    },
    {
      name: 'no-import-up-the-layers',
      severity: 'error',
      from: { path: '^reference/(api|web|auth)/' },
      to: { path: '^reference/tools/', pathNot: '^reference/tools/(index|types)\\.ts$' },
    },
    {
      name: 'only-testing-imports-test-mode',
      severity: 'error',
      comment: 'Test mode is a composition the production server never imports (reference/testing/).',
      from: { path: '^reference/', pathNot: '^reference/(testing|test)/|^reference/main\\.ts$' },
      to: { path: '^reference/testing/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|generated|\\.stryker-tmp|reports|data)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'], extensions: ['.ts', '.mjs', '.js', '.json'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
