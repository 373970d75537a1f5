// Marks a hook's function so the step wrapper (declared.ts) leaves it as it is: hooks are never skipped. In its own
// module, so the world and the wrapper can both name it without importing each other.
export const HOOK = Symbol('hook');
