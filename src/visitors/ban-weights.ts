/**
 * ntfy 2.26's `ban-weights`: how many strikes each refusal costs in the ban feed. A key is
 * `*` (everything), an exact ntfy code (`42909`), a code prefix (`429*`), or a bare HTTP
 * status (`403`), which stands for its family (`403*`); the longest match wins, and a
 * weight of 0 exempts. ntfy's ParseBanWeights refuses a malformed entry at startup, so a
 * typo cannot silently switch bans off.
 */
export interface BanWeight {
  /** The code prefix a key matches ('' for `*`), or with `exact` the one code. */
  prefix: string;
  exact: boolean;
  weight: number;
}

/** Most specific first: the first entry whose prefix a code starts with decides. */
export type BanWeights = readonly BanWeight[];

export const defaultBanWeights = ['42909:10', '42908:0', '42903:0', '42905:0', '42910:0', '*:1'] as const;

/** Parses `KEY:WEIGHT` entries; throws an Error naming the bad entry. */
export function parseBanWeights(entries: readonly string[]): BanWeights {
  const byKey = new Map<string, BanWeight>();
  for (const entry of entries) {
    const colon = entry.indexOf(':');
    if (colon < 0) throw new Error(`invalid ban-weight ${JSON.stringify(entry)}, want KEY:WEIGHT`);
    const key = entry.slice(0, colon).trim();
    const weightText = entry.slice(colon + 1).trim();
    if (!/^\d{1,6}$/.test(weightText)) throw new Error(`invalid ban-weight value in ${JSON.stringify(entry)}, want a non-negative integer`);
    const match = /^(\d+)(\*?)$/.exec(key);
    if (key !== '*' && !match) throw new Error(`invalid ban-weight key in ${JSON.stringify(entry)}, want "*", an ntfy code, an HTTP status, or a PREFIX*`);
    // A bare three digits is an HTTP status: its family, as ntfy normalises `403` to `403*`.
    const family = key === '*' || match?.[2] === '*' || key.length === 3;
    byKey.set(family ? `${key.replace('*', '')}*` : key, { prefix: key.replace('*', ''), exact: !family, weight: Number(weightText) });
  }
  return [...byKey.values()].sort((a, b) => b.prefix.length - a.prefix.length);
}

/** The strikes a refusal with ntfy code `code` costs: the longest matching key's weight, 0 when none matches. */
export function weightOf(weights: BanWeights, code: number): number {
  const text = String(code);
  for (const { prefix, exact, weight } of weights) if (exact ? text === prefix : text.startsWith(prefix)) return weight;
  return 0;
}
