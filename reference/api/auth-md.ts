// The /auth.md discovery document (§4.1; rules auth-md-discovery, auth-md-ways-in-and-human-only,
// auth-md-no-pre-claim-token): the ways a tool
// connects, the pairing ceremony, every scope with what it grants, and what is for a person only. Its text is
// reference/api/auth.md, where `{{scopes}}` stands for the list of scopes of spec/scopes.json.
import Router from '@koa/router';
import { readFileSync } from 'node:fs';
import { ALL_SCOPES, SCOPE_GRANTS } from '../domain/scopes.js';

const TEXT = readFileSync(new URL('./auth.md', import.meta.url), 'utf8');

export function authMd(): string {
  const scopes = ALL_SCOPES.map((s) => `- \`${s}\` — ${SCOPE_GRANTS[s]}`).join('\n');
  return TEXT.replace('{{scopes}}', () => scopes);
}

export function authMdRouter(): Router {
  const router = new Router();
  router.get('/auth.md', (ctx) => {
    ctx.type = 'text/markdown; charset=utf-8';
    ctx.body = authMd();
  });
  return router;
}
