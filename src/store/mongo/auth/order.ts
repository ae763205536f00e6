/**
 * Orders text as the auth-file's `ORDER BY` does (SQLite's binary collation): by UTF-16
 * code units, which for the ASCII names, topics and codes allowed here is byte order.
 */
export function compareText(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first non-zero comparison, for orderings of several keys. */
export function firstOf(...comparisons: number[]): number {
  return comparisons.find((c) => c !== 0) ?? 0;
}
