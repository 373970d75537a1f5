// Broken call paths: changes to the reference's table of steps (reference/mcp/pipeline.ts CALL_STEPS) other than
// leaving a step out (index.ts omitSteps): a step replaced by a weaker one, or one added.
import { DomainError } from '../../reference/domain/errors.js';
import type { Call, CallStep } from '../../reference/mcp/pipeline.js';
import { checkRole } from '../../reference/domain/authorize.js';

/**
 * authz-cross-tenant-not-found: a website id of another workspace answers "belongs to another account", while one
 * that exists nowhere is still not found: the answer tells whether another tenant's website exists.
 */
export function tellForeignWebsites(steps: readonly CallStep[]): CallStep[] {
  return steps.map((step) => {
    if (step.rule !== 'authz-cross-tenant-not-found' || !('run' in step)) return step;
    const resolve = step.run;
    return {
      rule: step.rule,
      run: async (call: Call) => {
        try {
          await resolve(call);
        } catch (error) {
          const websiteId = (call.args as { websiteId?: unknown }).websiteId;
          const foreign = error instanceof DomainError && error.code === 'not_found' && typeof websiteId === 'string' && (await call.ports.store.lookupDirectory('site', websiteId)) !== undefined;
          throw foreign ? new DomainError('access_denied', 'That website belongs to another account.') : error;
        }
      },
    };
  });
}

/** activity-pii-free: a failed call's activity entry carries the arguments it was given. */
export function logArgumentsOfFailures(steps: readonly CallStep[]): CallStep[] {
  const logArguments: CallStep = {
    rule: 'activity-pii-free',
    around: async (call, rest) => {
      await rest();
      if (call.answer && !call.answer.ok) call.entry.summary = JSON.stringify(call.rawArgs);
    },
  };
  const at = steps.findIndex((step) => step.rule === 'activity-entry-every-call') + 1;
  return [...steps.slice(0, at), logArguments, ...steps.slice(at)];
}

/**
 * authz-denial-order: the switched-off area is checked before the scope and the owner's access, so a call that
 * lacks its scope in a switched-off area is told about the area (§5.7 names the scope first).
 */
export function areaBeforeScope(steps: readonly CallStep[]): CallStep[] {
  const area = steps.find((step) => step.rule === 'authz-agency-area-off');
  if (!area) return [...steps];
  const rest = steps.filter((step) => step !== area);
  const at = rest.findIndex((step) => step.rule === 'scope-ceiling');
  return [...rest.slice(0, at), area, ...rest.slice(at)];
}

/**
 * domain-write-owner-only: set_primary_domain is checked like any domain:write tool of an editor, without its
 * owner-only gate (connect_domain keeps it), so an editor's connection chooses the primary address.
 */
export function primaryDomainForEditors(steps: readonly CallStep[]): CallStep[] {
  return steps.map((step) => {
    if (step.rule !== 'connection-live-role-recheck' || !('run' in step)) return step;
    const recheck = step.run;
    return {
      rule: step.rule,
      run: (call: Call) => {
        if (call.name !== 'set_primary_domain' || !call.site || !call.tool) return recheck(call);
        const gate = { ...call.tool.gate, minRole: 'editor' as const, gates: call.tool.gate.gates.filter((g) => g !== 'owner-only') };
        checkRole(call.ws, call.connection, call.site, gate, call.name);
      },
    };
  });
}

/**
 * scope-domain-read-grants-nothing-else: a connection holding domain:read passes the ceiling of domain:write too, so
 * its connect_domain goes on and fails later, for another reason (the hostname), or not at all.
 */
export function domainReadSatisfiesWrite(steps: readonly CallStep[]): CallStep[] {
  return steps.map((step) => {
    if (step.rule !== 'scope-ceiling' || !('run' in step)) return step;
    const ceiling = step.run;
    return {
      rule: step.rule,
      run: (call: Call) => {
        if (!call.connection.scopes.includes('domain:read') || call.connection.scopes.includes('domain:write')) return ceiling(call);
        const connection = { ...call.connection, scopes: [...call.connection.scopes, 'domain:write'] };
        return ceiling(new Proxy(call, { get: (target, key) => (key === 'connection' ? connection : Reflect.get(target, key)) }));
      },
    };
  });
}

/**
 * domain-read-since: every connection is treated as holding domain:read, whenever it was made, as if a server gave
 * the new read scope to the connections made before it existed (§9.2: they keep the scopes they were made with).
 */
export function domainReadForEveryConnection(steps: readonly CallStep[]): CallStep[] {
  return steps.map((step) => {
    if (step.rule !== 'scope-ceiling' || !('run' in step)) return step;
    const ceiling = step.run;
    return {
      rule: step.rule,
      run: (call: Call) => {
        if (call.connection.scopes.includes('domain:read')) return ceiling(call);
        const connection = { ...call.connection, scopes: [...call.connection.scopes, 'domain:read'] };
        return ceiling(new Proxy(call, { get: (target, key) => (key === 'connection' ? connection : Reflect.get(target, key)) }));
      },
    };
  });
}
