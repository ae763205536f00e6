import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { batchDrafts } from '../../src/store/mongo/batch-drafts.js';
import type { LogEvent } from '../../src/store/mongo/message-log.js';

const event = (topic: string, bodyBytes: number, n: number): LogEvent => ({
  id: `id${n}`,
  topic,
  time: 1,
  expires: 2,
  json: 'x'.repeat(bodyBytes),
  kind: 'stored',
});

/** The bytes FerretDB's index row takes for an array of strings, beside its header. */
const indexed = (strings: readonly string[]): number => strings.reduce((sum, s) => sum + Buffer.byteLength(s) + 4, 0);

describe('MongoDB log — batch drafts', () => {
  it('drafts — events cut in order into batches within 2 MB, and 2 KB of topic names and of ids (4 bytes more each), each listing its own topics and ids', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 400 }), fc.integer({ min: 0, max: 600_000 })), { maxLength: 400 }), (shapes) => {
        const events = shapes.map(([topic, bytes], n) => event(`t${topic}`, bytes % 7 === 0 ? bytes : bytes % 100, n));
        const drafts = batchDrafts(events);
        assert.deepEqual(drafts.flatMap((d) => d.events), events);
        for (const d of drafts) {
          assert.ok(d.events.length > 0);
          const bytes = d.events.reduce((sum, e) => sum + e.json.length, 0);
          assert.ok(d.events.length === 1 || bytes <= 2 << 20, `${bytes} bytes in ${d.events.length} events`);
          assert.ok(new Set(d.topics).size === d.topics?.length && [...new Set(d.topics)].join() === [...new Set(d.events.map((e) => e.topic))].join());
          assert.ok(d.events.length === 1 || indexed(d.topics ?? []) <= 2048, `${indexed(d.topics ?? [])} bytes of topics`);
          assert.ok(d.events.length === 1 || indexed(d.ids ?? []) <= 2048, `${indexed(d.ids ?? [])} bytes of ids`);
          assert.deepEqual(d.ids, d.events.map((e) => e.id));
        }
      }),
    );
  });

  it('drafts — 400 messages of one topic go in batches of 128 ids of 12 characters (FerretDB\'s index row)', () => {
    const events = Array.from({ length: 400 }, (_, n) => ({ ...event('busy', 50, n), id: `${'i'.repeat(12 - String(n).length)}${n}` }));
    assert.deepEqual(batchDrafts(events).map((d) => d.events.length), [128, 128, 128, 16]);
  });

  it('drafts — no events, no batch; one event past the limit alone in its batch', () => {
    assert.deepEqual(batchDrafts([]), []);
    const [huge, small] = [event('a', 3 << 20, 1), event('a', 10, 2)];
    assert.deepEqual(batchDrafts([huge, small]).map((d) => d.events.length), [1, 1]);
  });
});
