import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { IdReader } from '../../bench/load/id-reader.js';

/** Feeds `chunks` as a socket would: what a read leaves unconsumed comes again before the next chunk. */
function feed(reader: IdReader, chunks: string[]): void {
  let tail = Buffer.alloc(0);
  for (const chunk of chunks) {
    const text = Buffer.concat([tail, Buffer.from(chunk, 'latin1')]);
    tail = Buffer.from(text.subarray(reader.read(text)));
  }
}

const event = (id: string, kind: string): string => `{"id":"${id}","time":1700000000,"event":"${kind}","topic":"bench"${kind === 'message' ? ',"message":"bench publish"' : ''}}\n`;

describe('bench — id reader', () => {
  it('keeps the ids of message events only, and counts repeats', () => {
    const reader = new IdReader();
    feed(reader, [event('open1', 'open') + event('a1', 'message') + event('k1', 'keepalive') + event('b2', 'message') + event('a1', 'message')]);
    assert.deepEqual([...reader.seen], ['a1', 'b2']);
    assert.equal(reader.messages, 3);
    assert.equal(reader.duplicated, 1);
  });

  it('reads events split at every byte, with WebSocket frame headers between them', () => {
    const text = `\x81\x50${event('x9', 'message')}\x81\x40${event('open', 'open')}\x81\x50${event('y8', 'message')}`;
    const reader = new IdReader();
    feed(reader, [...text]);
    assert.deepEqual([...reader.seen], ['x9', 'y8']);
    assert.equal(reader.duplicated, 0);
  });
});
