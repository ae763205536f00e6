import { messageJson, type Message } from '../../../src/model/message.js';
import type { CacheEntry, MessageCache, Since } from '../../../src/store/message-cache.js';

/** Messages for the cache contract: ids unique within the run, due now, an hour to live. */
export const now = Math.floor(Date.now() / 1000);
let counter = 0;

export function message(topic: string, extra: Partial<Message> = {}): Message {
  counter++;
  return { id: `msg${String(counter).padStart(9, '0')}`, time: now, expires: now + 3600, event: 'message', topic, message: `m${counter}`, ...extra };
}

/** A cache entry of `m`; `published` false holds it as a scheduled message. */
export function entry(m: Message, published = true): CacheEntry {
  return { message: m, json: messageJson(m), published };
}

/** The ids a replay of `topic` returns, without a size cap. */
export async function ids(cache: MessageCache, topic: string, since: Since, scheduled = false): Promise<string[]> {
  return (await cache.replay({ topic, since, scheduled, maxBytes: 1e9 })).json.map(idOf);
}

/** Whether a replay of `topic` since `since` reports a gap. */
export async function gapOf(cache: MessageCache, topic: string, since: Since): Promise<boolean> {
  return (await cache.replay({ topic, since, scheduled: false, maxBytes: 1e9 })).gap;
}

/** The id in a message's JSON. */
export function idOf(json: string): string {
  return (JSON.parse(json) as Message).id;
}
