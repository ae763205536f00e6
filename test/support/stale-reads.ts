import { setImmediate as turn } from 'node:timers/promises';
import type { AuthStore } from '../../src/store/auth-store.js';

/**
 * Resolves once the store's staleness bound has passed since the call, on the wall clock
 * the bound is counted on: a read after this sees another instance's change that resolved
 * before the call. The wait is the contract's own time, not a guess.
 */
export async function pastStaleReadBound(store: Pick<AuthStore, 'staleReadBoundMs'>): Promise<void> {
  const until = Date.now() + store.staleReadBoundMs;
  while (Date.now() < until) await turn();
}
