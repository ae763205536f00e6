import type { Message } from './message.js';

/** The history sizes the settings offer, in characters of stored JSON (localStorage holds about 5 million). */
export const historySizes = [500_000, 1_000_000, 2_000_000] as const;
export const defaultHistorySize = 1_000_000;

/**
 * Drops the oldest messages, of whichever topic, until what is kept fits in `limit`
 * characters of JSON: the browser's storage is shared by every topic, so a busy topic may
 * keep more history than a quiet one, and none is cut at a fixed count.
 */
export function boundHistory<T extends { messages: Message[] }>(subs: T[], limit: number): T[] {
  const sized = subs.flatMap((s) => s.messages.map((m) => ({ m, size: JSON.stringify(m).length })));
  let total = sized.reduce((sum, x) => sum + x.size, 0);
  if (total <= limit) return subs;
  sized.sort((a, b) => a.m.time - b.m.time);
  const dropped = new Set<Message>();
  for (const { m, size } of sized) {
    if (total <= limit) break;
    dropped.add(m);
    total -= size;
  }
  return subs.map((s) => ({ ...s, messages: s.messages.filter((m) => !dropped.has(m)) }));
}
