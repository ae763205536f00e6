import type { Filter } from 'mongodb';
import type { AccessDoc } from './collections.js';

/**
 * Matching topics against access entries' patterns as ntfy does with SQL LIKE: `*` matches
 * any run of characters, everything else itself, letters case-insensitively (SQLite's LIKE
 * folds ASCII only; topics and patterns are ASCII). MongoDB cannot match a value against
 * patterns stored in documents, so the entries that could match are fetched — the exact
 * patterns by their lowercased text, the wildcard ones all — and the wildcards are tested
 * here. Two equality queries rather than one `$or`: FerretDB 1.24 hands equality filters to
 * PostgreSQL but answers `$or` by reading the whole collection (5,000 entries: 3 ms vs
 * 450 ms, measured here).
 */
export function candidateFilters(topic: string): Filter<AccessDoc>[] {
  return [{ lower: topic.toLowerCase(), wild: false }, { wild: true }];
}

export function matches(entry: Pick<AccessDoc, 'lower' | 'wild'>, topic: string): boolean {
  const lower = topic.toLowerCase();
  if (!entry.wild) return entry.lower === lower;
  return patternRegExp(entry.lower).test(lower);
}

/** The fields of a new entry's pattern. */
export function patternFields(topic: string): Pick<AccessDoc, 'topic' | 'lower' | 'wild'> {
  return { topic, lower: topic.toLowerCase(), wild: topic.includes('*') };
}

function patternRegExp(lowerPattern: string): RegExp {
  const parts = lowerPattern.split('*').map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${parts.join('.*')}$`, 's');
}
