/** Whole numbers as they are, rates with at most one decimal, large ones grouped (12 345). */
export function formatNumber(value: number): string {
  return Number.isInteger(value) ? value.toLocaleString() : value.toLocaleString(undefined, { maximumFractionDigits: 1 });
}

/** The limit's kind from the server's error text: "limit reached: too many requests" → "too many requests". */
export const limitKind = (error: string): string => error.replace(/^limit reached: /, '');
