/** ntfy's limits on what one Sprig call may build (util/sprig/functions.go). */

/** Most iterations until/untilStep/seq may produce, and largest repeat count. */
export const LOOP_LIMIT = 10_000n;
/** Longest string repeat may build, in bytes. */
export const STRING_LIMIT = 100_000n;
