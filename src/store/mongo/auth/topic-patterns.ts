import type { Filter } from 'mongodb';
import { topicPatternRegExp } from '../../../model/access.js';
import type { AccessDoc } from './collections.js';

/**
 * Matching topics against access entries' patterns: `*` matches any run of characters,
 * everything else itself, case-sensitively (ntfy 2.24). MongoDB cannot match a value
 * against patterns stored in documents, so the entries that could match are fetched — the
 * exact patterns by their text, the wildcard ones all — and the wildcards are tested here.
 * Two equality queries rather than one `$or`: FerretDB 1.24 hands equality filters to
 * PostgreSQL but answers `$or` by reading the whole collection (5,000 entries: 3 ms vs
 * 450 ms, measured here).
 */
export function candidateFilters(topic: string): Filter<AccessDoc>[] {
  return [{ topic, wild: false }, { wild: true }];
}

export function matches(entry: Pick<AccessDoc, 'topic' | 'wild'>, topic: string): boolean {
  return entry.wild ? topicPatternRegExp(entry.topic).test(topic) : entry.topic === topic;
}

/** The fields of a new entry's pattern. */
export function patternFields(topic: string): Pick<AccessDoc, 'topic' | 'wild'> {
  return { topic, wild: topic.includes('*') };
}
