/**
 * Tocsin's per-topic retention (`topic-retention` in server.yml, issue 37): how long a
 * topic's messages stay cached and how many of them, decided by the most specific of the
 * topic patterns that match it, as access entries are (auth/access-table.ts): the longest
 * pattern, an exact topic before a wildcard of the same length, then the earlier entry.
 */
import { topicPatternPattern, topicPatternRegExp } from './access.js';
import { parseDuration } from './units.js';

export interface Retention {
  /** How long a message stays cached; 0 caches none of the topic's messages. */
  cacheDurationMs: number;
  /** The most messages the topic keeps, the oldest dropped first; 0 for no limit. */
  maxMessages: number;
}

interface Rule extends Retention {
  pattern: string;
  matches: RegExp;
  /** False when the entry keeps cache-duration's (it sets only max-messages). */
  setsDuration: boolean;
}

/** A bad `topic-retention` entry; the message names the entry and what is wrong. */
export class RetentionRuleError extends Error {}

const entryKeys = new Set(['topic', 'cache-duration', 'max-messages']);

export class TopicRetention {
  private readonly rules: readonly Rule[];

  /** `entries` as server.yml holds them; `defaultMs` is cache-duration, for topics no entry matches. */
  constructor(entries: readonly unknown[], private readonly defaultMs: number) {
    this.rules = entries.map((entry, i) => ruleOf(entry, i, defaultMs)).sort((a, b) => b.pattern.length - a.pattern.length || Number(a.pattern.includes('*')) - Number(b.pattern.includes('*')));
  }

  /** The retention of `topic`: its most specific entry's, with cache-duration where the entry sets none. */
  of(topic: string): Retention {
    const rule = this.matching(topic);
    return rule ? { cacheDurationMs: rule.cacheDurationMs, maxMessages: rule.maxMessages } : { cacheDurationMs: this.defaultMs, maxMessages: 0 };
  }

  /**
   * When a message of `topic` stored at `time` (Unix seconds) leaves the cache: after its
   * topic's cache duration, or its TTL (issue 37) if that is shorter, so a TTL never keeps a
   * message past what its topic keeps. Undefined when the topic's messages are not cached.
   * `ownMs`, the publisher's tier's message expiry (ntfy's), stands in for cache-duration
   * where no entry sets a duration: an entry is the admin's word on that topic.
   */
  expiresAt(time: number, topic: string, ttlMs = Infinity, ownMs?: number): number | undefined {
    const rule = this.matching(topic);
    const cacheDurationMs = rule?.cacheDurationMs ?? this.defaultMs;
    if (cacheDurationMs <= 0) return undefined;
    const durationMs = rule?.setsDuration || ownMs === undefined ? cacheDurationMs : ownMs;
    return time + Math.floor(Math.min(durationMs, ttlMs) / 1000);
  }

  /** The most specific entry matching `topic` (rules are sorted so), if any. */
  private matching(topic: string): Rule | undefined {
    return this.rules.find((r) => r.matches.test(topic));
  }

  /** True when some entry limits how many messages a topic keeps: the prune then trims. */
  get limitsCount(): boolean {
    return this.rules.some((r) => r.maxMessages > 0);
  }
}

function ruleOf(entry: unknown, index: number, defaultMs: number): Rule {
  const where = `topic-retention entry ${index + 1}`;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) throw new RetentionRuleError(`${where}: must be a mapping with topic, cache-duration and/or max-messages`);
  const fields = entry as Record<string, unknown>;
  const unknown = Object.keys(fields).find((key) => !entryKeys.has(key));
  if (unknown !== undefined) throw new RetentionRuleError(`${where}: unknown key ${JSON.stringify(unknown)}`);
  const { topic } = fields;
  if (typeof topic !== 'string' || !topicPatternPattern.test(topic)) throw new RetentionRuleError(`${where}: topic must be a topic or a pattern with * (1-64 of A-Z, a-z, 0-9, -, _ and *), not ${JSON.stringify(topic)}`);
  const where2 = `${where} (${topic})`;
  if (fields['cache-duration'] === undefined && fields['max-messages'] === undefined) throw new RetentionRuleError(`${where2}: sets neither cache-duration nor max-messages`);
  const durationMs = durationOf(fields['cache-duration'], where2);
  return { pattern: topic, matches: topicPatternRegExp(topic), cacheDurationMs: durationMs ?? defaultMs, setsDuration: durationMs !== undefined, maxMessages: maxOf(fields['max-messages'], where2) };
}

/** Undefined when the entry keeps cache-duration's. */
function durationOf(value: unknown, where: string): number | undefined {
  if (value === undefined) return undefined;
  let ms = -1;
  try {
    // YAML reads `0` as a number; any other number has no unit.
    if (typeof value === 'string' || value === 0) ms = parseDuration(String(value));
  } catch {
    // refused below
  }
  if (!(ms >= 0)) throw new RetentionRuleError(`${where}: cache-duration must be a duration like 12h or 30d, not ${JSON.stringify(value)}`);
  return ms;
}

function maxOf(value: unknown, where: string): number {
  if (value === undefined) return 0;
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) throw new RetentionRuleError(`${where}: max-messages must be a whole number of at least 0, not ${JSON.stringify(value)}`);
  return value;
}
