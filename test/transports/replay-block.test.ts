import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { messageJson, type Message } from '../../src/model/message.js';
import { Outbound } from '../../src/model/outbound.js';
import { Replayed } from '../../src/model/replayed.js';
import { formats, replayBlock, type StreamFormat } from '../../src/transports/subscribe/framing.js';

const messages: Message[] = [
  { id: 'aaaaaaaaaaaa', time: 1700000000, event: 'message', topic: 't', message: 'first\nline' },
  { id: 'bbbbbbbbbbbb', time: 1700000001, event: 'message', topic: 't', message: 'Tür 🔔', title: 'Glocke' },
  { id: 'cccccccccccc', time: 1700000002, event: 'message_delete', topic: 't', sequence_id: 'aaaaaaaaaaaa' },
];
const json = messages.map(messageJson);
const bytes = json.reduce((sum, j) => sum + Buffer.byteLength(j), 0);
const streamFormats: StreamFormat[] = ['json', 'sse', 'raw'];

/** What the replay was before it was one block: each event's own frame, one after another. */
function frameByFrame(format: StreamFormat): Buffer {
  return Buffer.concat(json.map((j) => formats[format].frame(Outbound.stored(j))));
}

describe('replay block — a replay written at once', () => {
  for (const format of streamFormats) {
    it(`${format}: the same bytes as a frame per message, from the stored JSON and from events`, () => {
      assert.deepEqual(replayBlock(format, Replayed.of({ json, bytes })), frameByFrame(format));
      assert.deepEqual(replayBlock(format, Replayed.ofEvents(json.map((j) => Outbound.stored(j)))), frameByFrame(format));
    });

    it(`${format}: an empty replay is no bytes`, () => {
      assert.equal(replayBlock(format, Replayed.of({ json: [], bytes: 0 })).length, 0);
    });
  }

  it('json: lines of the stored JSON in UTF-8, multi-byte characters included', () => {
    const block = replayBlock('json', Replayed.of({ json, bytes }));
    assert.equal(block.toString('utf8'), `${json.join('\n')}\n`);
    assert.equal(block.length, bytes + 3);
    assert.ok(bytes > json.join('').length, 'ü and 🔔 take more bytes than UTF-16 units');
  });
});

describe('replayed — the messages of a replay', () => {
  it('events are parsed from the stored JSON on first use, once', () => {
    const replay = Replayed.of({ json, bytes });
    const events = replay.events;
    assert.deepEqual(events.map((e) => [e.head.id, e.head.event]), messages.map((m) => [m.id, m.event]));
    assert.equal(replay.events, events);
  });

  it('made of events, it counts their JSON in UTF-8 bytes', () => {
    const replay = Replayed.ofEvents(json.map((j) => Outbound.stored(j)));
    assert.deepEqual(replay.json, json);
    assert.equal(replay.bytes, bytes);
  });
});
