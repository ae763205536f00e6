import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { Outbound } from '../../src/model/outbound.js';
import { Exchange } from '../../src/transports/http/respond.js';
import { uws, type us_listen_socket } from '../../src/transports/http/uws.js';
import { TurnFlusher } from '../../src/transports/subscribe/flusher.js';
import { HttpSink } from '../../src/transports/subscribe/http-sink.js';
import { StreamGroup } from '../../src/transports/subscribe/stream-group.js';
import { LineStream, Mailbox } from '../support/clients.js';

const event = (id: string, body = id): Outbound => Outbound.of({ id, time: 1, event: 'message', topic: 't', message: body }, JSON.stringify({ id, message: body }));
const idOf = (line: string): unknown => (JSON.parse(line) as { id: unknown }).id;

const flusher = new TurnFlusher();
let listenSocket: us_listen_socket | false = false;
let port = 0;
let bufferLimit = 0;

/** A JSON stream sink on a request the test server took, counting its overflows. */
class Opened extends HttpSink {
  overflows = 0;

  constructor(ex: Exchange) {
    super(ex, 'json', flusher, bufferLimit, []);
  }

  protected overflowed(): void {
    this.overflows++;
  }

  get sink(): HttpSink {
    return this;
  }
}
const opened = new Mailbox<Opened>();

before(async () => {
  const app = uws.App();
  // Each GET becomes a sink, handed to the test waiting for it.
  app.get('/*', (res) => opened.put(new Opened(new Exchange(res))));
  await new Promise<void>((resolve, reject) =>
    app.listen('127.0.0.1', 0, (socket) => {
      if (!socket) return reject(new Error('listen failed'));
      listenSocket = socket;
      port = uws.us_socket_local_port(socket);
      resolve();
    }),
  );
});
after(() => {
  if (listenSocket) uws.us_listen_socket_close(listenSocket);
});

/** A JSON stream whose first line (`open`) has arrived: the sink's head is written and its queue empty. */
async function started(limit = 1 << 20): Promise<{ sink: HttpSink; lines: LineStream; entry: Opened }> {
  bufferLimit = limit;
  const lines = new LineStream(`http://127.0.0.1:${port}/`);
  const entry = await opened.take(5000);
  entry.sink.push(event('open'));
  entry.sink.arm();
  assert.equal(idOf(await lines.next()), 'open');
  return { sink: entry.sink, lines, entry };
}

/** A started stream, the one member of a fan-out group. */
async function grouped(limit?: number): Promise<{ sink: HttpSink; lines: LineStream; entry: Opened; group: StreamGroup }> {
  const stream = await started(limit);
  const group = new StreamGroup(flusher);
  group.add(stream.sink);
  return { ...stream, group };
}

async function nextIds(lines: LineStream, count: number): Promise<unknown[]> {
  const ids: unknown[] = [];
  for (let i = 0; i < count; i++) ids.push(idOf(await lines.next()));
  return ids;
}

/** A client that sends its request and never reads: the kernel's buffers fill, then uWS reports backpressure. */
function stalledClient(): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.write('GET / HTTP/1.1\r\nHost: localhost\r\n\r\n');
      socket.pause();
      resolve(socket);
    });
  });
}

describe('http sink — in a stream group', () => {
  it('takes the group’s events of a turn in one write, in order', async () => {
    const { lines, group } = await grouped();
    for (const id of ['a', 'b', 'c']) group.deliver(event(id));
    assert.deepEqual(await nextIds(lines, 3), ['a', 'b', 'c']);
    lines.close();
  });

  it('a frame of its own (a keepalive) goes out between the group’s events it came between', async () => {
    const { sink, lines, group } = await grouped();
    group.deliver(event('a'));
    sink.push(event('keepalive'));
    group.deliver(event('b'));
    assert.deepEqual(await nextIds(lines, 3), ['a', 'keepalive', 'b']);
    lines.close();
  });

  it('a sink joining mid-turn gets its own frames, then only the events after it joined', async () => {
    const { sink: first, lines: firstLines } = await started();
    const group = new StreamGroup(flusher);
    group.add(first);
    const lines = new LineStream(`http://127.0.0.1:${port}/`);
    const { sink: late } = await opened.take(5000);
    group.deliver(event('before'));
    late.push(event('replayed'));
    group.add(late);
    group.deliver(event('after'));
    assert.deepEqual(await nextIds(lines, 2), ['replayed', 'after']);
    assert.deepEqual(await nextIds(firstLines, 2), ['before', 'after']);
    lines.close();
    firstLines.close();
  });

  it('end() sends the group’s events of the turn before ending the response', async () => {
    const { sink, lines, group } = await grouped();
    group.deliver(event('last'));
    sink.end();
    assert.deepEqual(await nextIds(lines, 1), ['last']);
    await lines.end();
    assert.equal(lines.failure, undefined);
  });

  it('a client that reads is never dropped, however much one turn holds', async () => {
    const { lines, entry, group } = await grouped(1000);
    const body = 'x'.repeat(5000);
    for (let i = 0; i < 20; i++) group.deliver(event(String(i), body));
    assert.deepEqual(await nextIds(lines, 20), Array.from({ length: 20 }, (_, i) => String(i)));
    assert.equal(entry.overflows, 0);
    lines.close();
  });

  it('a client that stops reading is dropped, once, when what queued past the backpressure exceeds the limit', async () => {
    bufferLimit = 64 * 1024;
    const client = await stalledClient();
    const entry = await opened.take(5000);
    const { sink } = entry;
    sink.push(event('open'));
    sink.arm();
    const group = new StreamGroup(flusher);
    group.add(sink);
    // One 16 KB event a turn until the sink gives up on the client.
    const body = 'y'.repeat(16 * 1024);
    let turns = 0;
    while (entry.overflows === 0 && turns < 5000) {
      group.deliver(event(String(turns++), body));
      await new Promise((resolve) => setImmediate(resolve));
    }
    assert.equal(entry.overflows, 1, `not dropped after ${turns} turns`);
    // The kernel took megabytes first: the drop came after uWS's backpressure, not from the limit alone.
    assert.ok(turns * body.length > 16 * bufferLimit, `dropped after only ${turns} turns`);
    // Closed: later turns neither write nor count another overflow.
    group.deliver(event('late', body));
    await new Promise((resolve) => setImmediate(resolve));
    assert.equal(entry.overflows, 1);
    client.destroy();
  });
});
