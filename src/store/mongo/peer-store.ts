import { Ajv } from 'ajv';
import type { PeerPresence, PeerStore } from '../peer-store.js';
import type { LogBatch, MessageLog } from './message-log.js';
import type { PeerRegistry } from './peer-registry.js';

const strings = { type: 'array', items: { type: 'string' } } as const;
const position = { type: 'integer', minimum: 1 } as const;

/** A log batch as a peer sends it (message-log.ts): checked before it is held, as any input from the network. */
const isLogBatch = new Ajv({ allErrors: false }).compile<LogBatch>({
  type: 'object',
  required: ['_id', 'last', 'events'],
  properties: {
    _id: position,
    last: position,
    by: { type: 'string' },
    after: { type: 'string' },
    topics: strings,
    ids: strings,
    claim: { type: 'string' },
    events: {
      type: 'array',
      items: {
        type: 'object',
        required: ['id', 'topic', 'time', 'expires', 'json', 'kind'],
        properties: {
          id: { type: 'string' },
          topic: { type: 'string' },
          time: { type: 'number' },
          expires: { type: 'number' },
          json: { type: 'string' },
          kind: { enum: ['stored', 'waiting', 'cancelled', 'released', 'uncached'] },
          sid: { type: 'string' },
          attachment: { const: true },
        },
      },
    },
  },
});

/** The MongoDB store's side of the nodes' announcements: its logs' commits out, peers' batches in. */
export class MongoPeerStore implements PeerStore {
  constructor(
    private readonly logs: readonly MessageLog[],
    readonly presence: PeerPresence,
    readonly registry: PeerRegistry,
  ) {}

  onCommit(listener: (log: number, batch: object) => void): () => void {
    const stops = this.logs.map((log, index) => log.onAppend((batch) => listener(index, batch)));
    return () => stops.forEach((stop) => stop());
  }

  offer(log: number, batch: unknown): boolean {
    const target = this.logs[log];
    // A batch spans `last - _id + 1` positions, one per event (one when it has none).
    if (!target || !isLogBatch(batch) || batch.last - batch._id + 1 !== Math.max(1, batch.events.length)) return false;
    target.offer(batch);
    return true;
  }
}
