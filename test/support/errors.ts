import assert from 'node:assert/strict';
import { HttpError } from '../../src/model/errors.js';

/** The ntfy error code a promise rejects with, or undefined when it resolves; any other error fails the test. */
export async function code(p: Promise<unknown>): Promise<number | undefined> {
  try {
    await p;
    return undefined;
  } catch (err) {
    assert.ok(err instanceof HttpError, String(err));
    return err.code;
  }
}

/** The ntfy error code a call throws, or undefined when it returns; any other error fails the test. */
export function codeOf(f: () => unknown): number | undefined {
  try {
    f();
    return undefined;
  } catch (err) {
    assert.ok(err instanceof HttpError, String(err));
    return err.code;
  }
}
