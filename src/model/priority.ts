import { errors } from './errors.js';

const byWord: Record<string, number> = {
  '1': 1, min: 1,
  '2': 2, low: 2,
  '3': 3, default: 3,
  '4': 4, high: 4,
  '5': 5, max: 5, urgent: 5,
};

/**
 * Browsers and HTTP libraries send their own `Priority` header (RFC 9218, e.g. "u=1, i");
 * ntfy ignores those values rather than rejecting the request.
 */
const rfc9218 = /^u=\d(,\s*(i|\d))?$/;

/** ntfy's priority: 1-5 or a word; '' (and an RFC 9218 value) means not set, returned as 0. */
export function parsePriority(input: string): number {
  const value = input.trim().toLowerCase();
  if (value === '' || rfc9218.test(value)) return 0;
  const priority = byWord[value];
  if (priority === undefined) throw errors.priorityInvalid;
  return priority;
}
