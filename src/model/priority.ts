import { errors } from './errors.js';

// A Map, not an object literal: `Priority: __proto__` must not find Object.prototype.
const byWord = new Map<string, number>([
  ['1', 1], ['min', 1],
  ['2', 2], ['low', 2],
  ['3', 3], ['default', 3],
  ['4', 4], ['high', 4],
  ['5', 5], ['max', 5], ['urgent', 5],
]);

/**
 * ntfy's priority (util.ParsePriority): 1-5 or a word; '' means not set, returned as 0.
 * RFC 9218's `Priority: u=3` header is skipped where parameters are read (http/params.ts),
 * so here, as in ntfy, `X-Priority: u=3` is as invalid as any other word.
 */
export function parsePriority(input: string): number {
  const value = input.trim().toLowerCase();
  if (value === '') return 0;
  const priority = byWord.get(value);
  if (priority === undefined) throw errors.priorityInvalid;
  return priority;
}
