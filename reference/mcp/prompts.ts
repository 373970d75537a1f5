// Prompts of §4.5, from spec/prompts.json. A prompt only returns guidance text; it is logged like any call.
import { ErrorCode, type GetPromptResult } from '@modelcontextprotocol/sdk/types.js';
import { protocolError } from './protocol-error.js';
import { checkRateLimits, type CallPorts, type Principal } from './pipeline.js';
import { DomainError } from '../domain/errors.js';

import { loadPrompts } from '../../spec/index.js';

const PROMPTS = loadPrompts();

export function listPrompts() {
  return { prompts: PROMPTS.map(({ name, title, description, arguments: args }) => ({ name, title, description, arguments: args })) };
}

export async function getPrompt(ports: Pick<CallPorts, 'store' | 'clock' | 'activity' | 'limits' | 'limiter'>, principal: Principal, name: string, args: Record<string, string> | undefined): Promise<GetPromptResult> {
  const spec = PROMPTS.find((p) => p.name === name);
  if (!spec) throw protocolError(ErrorCode.InvalidParams, `Unknown prompt ${name}; see prompts/list.`);
  for (const a of spec.arguments) {
    if (a.required && !args?.[a.name]) throw protocolError(ErrorCode.InvalidParams, `Prompt ${name} needs the argument "${a.name}".`);
  }
  const text = spec.template.replace(/\{(\w+)\}/g, (_, key: string) => String(args?.[key] ?? ''));
  const ws = await ports.store.read(principal.workspaceId);
  if (ws) {
    // A prompt is a call like any other: it counts against the §8 rate limits before it writes activity.
    try {
      checkRateLimits(ports, principal, ports.clock.now(ws.id).getTime());
    } catch (error) {
      if (error instanceof DomainError) throw protocolError(-32000, error.message, error.toJSON());
      throw error;
    }
    await ports.activity.append({
      at: ports.clock.now(ws.id).toISOString(),
      connectionId: principal.connectionId,
      workspaceId: ws.id,
      websiteId: null,
      kind: 'prompt',
      name,
      outcome: 'ok',
    });
  }
  return { description: spec.description, messages: [{ role: 'user', content: { type: 'text', text } }] };
}
