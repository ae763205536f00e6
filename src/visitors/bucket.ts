/** A token bucket's state: `tokens` as of `at` (ms). */
export interface BucketState {
  tokens: number;
  at: number;
}

/**
 * Token buckets: at most `burst` tokens, refilled continuously at one per `replenishMs`.
 * The shape is passed on each call, so a visitor whose tier changes keeps its balance.
 * Functions over a state rather than a class, so a visitor can hold its request bucket in
 * its own fields: in an address flood every visitor is young garbage, and one object fewer
 * each shows in the flood bench.
 */
export function takeTokens(state: BucketState, n: number, now: number, burst: number, replenishMs: number): boolean {
  if (tokensLeft(state, now, burst, replenishMs) < n) return false; // Go's rate.Limiter.AllowN: all or none
  state.tokens -= n;
  return true;
}

/**
 * Takes `n` tokens whatever is left, into debt if need be: spending reported by another
 * node was allowed there already, and the debt keeps the rate across nodes the configured one.
 */
export function debit(state: BucketState, n: number, now: number, burst: number, replenishMs: number): void {
  state.tokens = tokensLeft(state, now, burst, replenishMs) - n;
}

export function tokensLeft(state: BucketState, now: number, burst: number, replenishMs: number): number {
  state.tokens = Math.min(burst, state.tokens + (now - state.at) / replenishMs);
  state.at = now;
  return state.tokens;
}
