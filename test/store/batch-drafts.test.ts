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

describe('MongoDB log — batch drafts', () => {
  it('drafts — events cut in order into batches within 2 MB and 1 KB of topic names, each listing its own topics and ids', () => {
    fc.assert(
      fc.property(fc.array(fc.tuple(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 0, max: 600_000 })), { maxLength: 60 }), (shapes) => {
        const events = shapes.map(([topic, bytes], n) => event(`topic-${'t'.repeat(topic)}`, bytes, n));
        const drafts = batchDrafts(events);
        assert.deepEqual(drafts.flatMap((d) => d.events), events);
        for (const d of drafts) {
          assert.ok(d.events.length > 0);
          const bytes = d.events.reduce((sum, e) => sum + e.json.length, 0);
          assert.ok(d.events.length === 1 || bytes <= 2 << 20, `${bytes} bytes in ${d.events.length} events`);
          assert.ok(new Set(d.topics).size === d.topics?.length && [...new Set(d.topics)].join() === [...new Set(d.events.map((e) => e.topic))].join());
          assert.ok((d.topics ?? []).join('').length <= 1024);
          assert.deepEqual(d.ids, d.events.map((e) => e.id));
        }
      }),
    );
  });

  it('drafts — no events, no batch; one event past the limit alone in its batch', () => {
    assert.deepEqual(batchDrafts([]), []);
    const [huge, small] = [event('a', 3 << 20, 1), event('a', 10, 2)];
    assert.deepEqual(batchDrafts([huge, small]).map((d) => d.events.length), [1, 1]);
  });
});
