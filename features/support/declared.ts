// A step that needs a value the target did not declare throws NotDeclared (rule kit-judges-by-source). This
// wrapper, around every step, turns that into a "not checked" note instead of a failure and skips the rest of
// the scenario, whose later steps depend on what that step would have done. Hooks are never skipped.
import { setDefinitionFunctionWrapper } from '@cucumber/cucumber';
import { activeDeclaration, NotDeclared } from '../../conformance/lib/declaration.js';
import { loadJson } from '../../spec/index.js';
import type { SiteWorld } from './world.js';

export const HOOK = Symbol('hook');

setDefinitionFunctionWrapper((fn: ((this: SiteWorld, ...args: unknown[]) => unknown) & { [HOOK]?: true }) => {
  if (fn[HOOK]) return fn;
  return async function (this: SiteWorld, ...args: unknown[]) {
    if (this.notDeclared) return undefined;
    try {
      return await fn.apply(this, args);
    } catch (error) {
      if (!(error instanceof NotDeclared)) throw error;
      this.notDeclared = error.what;
      this.notChecked(`${error.what}: the rest of the scenario`);
      return undefined;
    }
  };
});

const SOURCE_FIELDS = loadJson<{ tools: Record<string, string[]> }>('output-fields.json').tools;

/**
 * Whether the data of `tool` at `path` may be read in this target: always for a field the source names
 * (spec/output-fields.json), otherwise only when the target declares outputSchemas.
 */
export function outputFieldDeclared(tool: string | undefined, path: string): boolean {
  if (activeDeclaration()?.outputSchemas) return true;
  const top = path.split('/')[1] ?? '';
  return Boolean(tool && SOURCE_FIELDS[tool]?.includes(top));
}

/** For an assertion: reports "not checked" and answers false when the field is not readable in this target. */
export function checkableOutput(world: SiteWorld, path: string): boolean {
  if (outputFieldDeclared(world.last.tool, path)) return true;
  world.notChecked(`output field ${world.last.tool ?? '?'}${path} (outputSchemas)`);
  return false;
}

/** For a step that cannot go on without the field: NotDeclared skips the rest of the scenario. */
export function requireOutput(world: SiteWorld, path: string): void {
  if (!outputFieldDeclared(world.last.tool, path)) throw new NotDeclared(`output field ${world.last.tool ?? '?'}${path} (outputSchemas)`);
}
