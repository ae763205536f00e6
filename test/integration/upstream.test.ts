import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import { after, describe, it } from 'node:test';
import { LineStream, Mailbox, type Json } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Upstream poll requests (iOS): each published message announced to an upstream peer, by its topic's hash. */

const baseUrl = 'https://ntfy.example.com';

interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/** An upstream server on a free port that records each request; `hold` keeps its answers back until `release`. */
async function peer(): Promise<{ url: string; requests: Mailbox<Received>; count: () => number; hold(): void; release(): void }> {
  const requests = new Mailbox<Received>();
  let count = 0;
  let held: ServerResponse[] | undefined;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      count++;
      requests.put({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      if (held) held.push(res);
      else res.writeHead(200).end('{}');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const release = (): void => {
    for (const res of held ?? []) res.writeHead(200).end('{}');
    held = undefined;
  };
  after(() => {
    release();
    server.closeAllConnections();
    server.close();
  });
  return { url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`, requests, count: () => count, hold: () => (held ??= []), release };
}

async function server(settings: Record<string, unknown>): Promise<TestServer> {
  const s = await startTestServer({ 'base-url': baseUrl, ...settings });
  after(() => s.server.close());
  return s;
}

async function publish(s: TestServer, path: string, body: string, headers: Record<string, string> = {}): Promise<Json> {
  const res = await fetch(`${s.url}/${path}`, { method: 'POST', body, headers });
  assert.equal(res.status, 200);
  return (await res.json()) as Json;
}

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('upstream — poll requests', () => {
  it('a published message is announced to the upstream: POST <upstream>/<sha256 of the topic URL>, X-Poll-ID, the token, no body', async () => {
    const upstream = await peer();
    const s = await server({ 'upstream-base-url': upstream.url, 'upstream-access-token': 'tk_upstreamtoken' });
    const message = await publish(s, 'mytopic', 'Secret text');
    const request = await upstream.requests.take(5000);
    assert.equal(request.method, 'POST');
    assert.equal(request.path, `/${sha256('https://ntfy.example.com/mytopic')}`);
    assert.equal(request.headers['x-poll-id'], message.id);
    assert.equal(request.headers.authorization, 'Bearer tk_upstreamtoken');
    assert.equal(request.headers['user-agent'], 'tocsin');
    assert.equal(request.body, '', 'the upstream learns nothing of the message');
  });

  it('no Authorization without a token; UnifiedPush publishes are not announced', async () => {
    const upstream = await peer();
    const s = await server({ 'upstream-base-url': upstream.url });
    await publish(s, 'upAbCdEf123456?up=1', 'for an UnifiedPush app');
    const message = await publish(s, 'plain', 'for the iOS app');
    const request = await upstream.requests.take(5000);
    assert.deepEqual([request.path, request.headers['x-poll-id'], request.headers.authorization], [`/${sha256(`${baseUrl}/plain`)}`, message.id, undefined]);
    await s.server.close(); // waits for every queued poll request
    assert.equal(upstream.count(), 1, 'only the ordinary message');
  });

  it('the publish is answered while the upstream has not answered', async () => {
    const upstream = await peer();
    const s = await server({ 'upstream-base-url': upstream.url });
    upstream.hold();
    await publish(s, 't', 'one');
    await upstream.requests.take(5000);
    const started = performance.now();
    await publish(s, 't', 'two');
    assert.ok(performance.now() - started < 1000, 'answered at once');
    await upstream.requests.take(5000);
    upstream.release();
  });

  it('a scheduled message is announced when it is delivered, not when it is published', async () => {
    const upstream = await peer();
    const s = await server({ 'upstream-base-url': upstream.url, 'message-delay-min': '1s' });
    const message = await publish(s, 'later', 'soon', { In: '1s' });
    assert.equal(upstream.count(), 0);
    const request = await upstream.requests.take(10_000);
    assert.equal(request.headers['x-poll-id'], message.id);
    assert.ok(Date.now() / 1000 >= (message.time as number), 'not before its time');
  });

  it('a Tocsin upstream turns it into the poll_request the iOS app receives', async () => {
    const upstream = await startTestServer();
    after(() => upstream.server.close());
    const s = await server({ 'upstream-base-url': upstream.url });
    const hashed = sha256(`${baseUrl}/phone`);
    const app = new LineStream(`${upstream.url}/${hashed}/json`);
    assert.equal(JSON.parse(await app.next()).event, 'open');
    const message = await publish(s, 'phone', 'Hello iPhone');
    const poll = JSON.parse(await app.next()) as Json;
    assert.deepEqual([poll.event, poll.topic, poll.poll_id, poll.message], ['poll_request', hashed, message.id, 'New message']);
    app.close();
  });
});
