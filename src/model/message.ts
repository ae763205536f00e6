import { randomFillSync } from 'node:crypto';
import type { Action } from './action.js';

export type EventType = 'open' | 'keepalive' | 'message' | 'message_delete' | 'message_clear' | 'poll_request' | 'replay_gap';

export interface Attachment {
  name: string;
  type?: string;
  size?: number;
  expires?: number;
  url: string;
}

/**
 * A message as subscribers receive it. Optional fields are left undefined rather than
 * empty so that the JSON omits them, as ntfy's `omitempty` does.
 */
export interface Message {
  id: string;
  time: number;
  expires?: number;
  event: EventType;
  topic: string;
  /** Of a replay_gap event: where the replay started, an id or a Unix time. */
  since?: string;
  sequence_id?: string;
  title?: string;
  message?: string;
  priority?: number;
  tags?: string[];
  click?: string;
  icon?: string;
  actions?: Action[];
  attachment?: Attachment;
  poll_id?: string;
  content_type?: string;
  encoding?: string;
}

const idAlphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
const idPattern = /^[a-zA-Z0-9]{12}$/;

/**
 * Random bytes drawn from a pool refilled 8 KB at a time: one getrandom call per ~680 ids
 * instead of one per id (it was 7% of a publish in the profile).
 */
const pool = Buffer.alloc(8192);
let poolOffset = pool.length;

/** Random id from ntfy's alphabet; 12 characters for messages, 10 for actions. */
export function randomId(length = 12): string {
  if (poolOffset + length > pool.length) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  let id = '';
  // 256 % 62 leaves a slight bias towards the first letters, as ntfy's ids have; ids are
  // unguessable enough for message ids, which are not secrets.
  for (let i = 0; i < length; i++) id += idAlphabet[(pool[poolOffset + i] as number) % idAlphabet.length];
  poolOffset += length;
  return id;
}

/** Whether `s` has the shape of a message id (used to tell `since=<id>` from a duration). */
export function isMessageId(s: string): boolean {
  return idPattern.test(s);
}

export function nowSeconds(): number {
  return Math.floor(Date.now() / 1000);
}

/** A stream control event (`open`, `keepalive`) listing the subscription's topics. */
export function controlEvent(event: 'open' | 'keepalive', topics: string): Message {
  return { id: randomId(), time: nowSeconds(), event, topic: topics };
}

/**
 * Tocsin's `replay_gap` event (issue 37): the replay of `topic` since `since` (the id, or
 * the Unix time, it started from) misses messages that were dropped before it. Sent
 * after `open`, before the replay; ntfy's clients skip events they do not know.
 */
export function replayGapEvent(topic: string, since: string): Message {
  return { id: randomId(), time: nowSeconds(), event: 'replay_gap', topic, since };
}

/**
 * ntfy 2.16's events about earlier notifications of a sequence: `message_delete` removes
 * them on the clients (and deletes a scheduled one not yet sent), `message_clear` marks
 * them read. They carry no text; clients match them by `sequence_id`.
 */
export function sequenceEvent(event: 'message_delete' | 'message_clear', topic: string, sequenceId: string): Message {
  return { id: randomId(), time: nowSeconds(), event, topic, sequence_id: sequenceId };
}

/** Fields in ntfy's JSON order, so Tocsin's output reads like ntfy's byte for byte. */
const fieldOrder: readonly (keyof Message)[] = [
  'id', 'time', 'expires', 'event', 'topic', 'since', 'sequence_id', 'title', 'message', 'priority', 'tags',
  'click', 'icon', 'actions', 'attachment', 'poll_id', 'content_type', 'encoding',
];

/** The message's JSON text, as every wire format carries it. */
export function messageJson(m: Message): string {
  const ordered: Record<string, unknown> = {};
  for (const key of fieldOrder) {
    const value = m[key];
    if (value !== undefined) ordered[key] = value;
  }
  return JSON.stringify(ordered);
}
