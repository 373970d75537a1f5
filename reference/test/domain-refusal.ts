// The DomainError a domain function throws, as a client receives it (its toJSON), for unit tests of reference/domain/
// and reference/tools/: one home instead of a copy per test file.
import { expect } from 'vitest';
import { DomainError } from '../domain/errors.js';

/** What `run` refuses with; fails the test when it throws anything else or nothing. */
export function refusal(run: () => unknown) {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).toJSON();
  }
  throw new Error('expected a refusal');
}

/** refusal for an asynchronous `run`. */
export async function asyncRefusal(run: () => Promise<unknown>) {
  try {
    await run();
  } catch (error) {
    expect(error).toBeInstanceOf(DomainError);
    return (error as DomainError).toJSON();
  }
  throw new Error('expected a refusal');
}
