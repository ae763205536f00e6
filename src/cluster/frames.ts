import { Ajv } from 'ajv';
import type { Message } from '../model/message.js';
import type { Added, CacheEntry } from '../store/message-cache.js';

/**
 * What the nodes send each other on a link (a WebSocket, one JSON text frame each):
 * - to the node that linked: every batch committed (`{log, batch}`, announce-socket.ts) and
 *   the answer to each add it forwarded (`{reply, seqs, replaced}` or `{reply, error}`);
 * - from it: adds for the logs this node leads (`{forward, entries}`; the log is the entries' topics').
 * A peer holds the secret, but what it sends is checked as any input before it is used.
 */
export interface Forward {
  forward: number;
  /** Each entry's message as its JSON alone (the leader parses it back), and whether it is published now. */
  entries: Pick<CacheEntry, 'json' | 'published'>[];
}

export type Reply = { reply: number } & (Added | { error: string });

const ajv = new Ajv({ allErrors: false });

/** A forwarded add: at most `maxEntries` entries, each a message as the publish pipeline made it. */
export const maxEntries = 10_000;
export const isForward = ajv.compile<Forward>({
  type: 'object',
  required: ['forward', 'entries'],
  properties: {
    forward: { type: 'integer' },
    entries: {
      type: 'array',
      minItems: 1,
      maxItems: maxEntries,
      items: {
        type: 'object',
        required: ['json', 'published'],
        properties: { json: { type: 'string' }, published: { type: 'boolean' } },
      },
    },
  },
});

/** The message of a forwarded entry's JSON, as the publish pipeline made it; undefined when it is none. */
export const isForwardedMessage = ajv.compile<Message>({
  type: 'object',
  required: ['id', 'time', 'event', 'topic'],
  properties: { id: { type: 'string' }, time: { type: 'integer' }, event: { type: 'string' }, topic: { type: 'string' } },
});

/** A forward's entries as the cache takes them; undefined when a message is not one. */
export function forwardedEntries(forward: Forward): CacheEntry[] | undefined {
  const entries: CacheEntry[] = [];
  for (const { json, published } of forward.entries) {
    const message = parseFrame(Buffer.from(json), false);
    if (!isForwardedMessage(message)) return undefined;
    entries.push({ message, json, published });
  }
  return entries;
}

export const isReply = ajv.compile<Reply>({
  type: 'object',
  required: ['reply'],
  properties: {
    reply: { type: 'integer' },
    seqs: { type: 'array', items: { type: 'integer' } },
    replaced: { type: 'array', items: { type: 'string' } },
    error: { type: 'string' },
  },
  oneOf: [{ required: ['seqs', 'replaced'] }, { required: ['error'] }],
});

/** A text frame's JSON; undefined when it is none. */
export function parseFrame(data: Buffer, isBinary: boolean): unknown {
  if (isBinary) return undefined;
  try {
    return JSON.parse(data.toString('utf8')) as unknown;
  } catch {
    return undefined;
  }
}
