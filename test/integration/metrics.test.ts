import assert from 'node:assert/strict';
import { connect, type Socket } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { LineStream, publish, WsStream } from '../support/clients.js';
import { Scrape } from '../support/prometheus.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** Every metric ntfy registers (server/server_metrics.go), with its type. */
const ntfyMetrics: Record<string, 'COUNTER' | 'GAUGE'> = {
  ntfy_messages_published_success: 'COUNTER',
  ntfy_messages_published_failure: 'COUNTER',
  ntfy_messages_cached_total: 'GAUGE',
  ntfy_message_publish_duration_ms: 'GAUGE',
  ntfy_firebase_published_success: 'COUNTER',
  ntfy_firebase_published_failure: 'COUNTER',
  ntfy_emails_sent_success: 'COUNTER',
  ntfy_emails_sent_failure: 'COUNTER',
  ntfy_emails_received_success: 'COUNTER',
  ntfy_emails_received_failure: 'COUNTER',
  ntfy_calls_made_success: 'COUNTER',
  ntfy_calls_made_failure: 'COUNTER',
  ntfy_unifiedpush_published_success: 'COUNTER',
  ntfy_matrix_published_success: 'COUNTER',
  ntfy_matrix_published_failure: 'COUNTER',
  ntfy_attachments_total_size: 'GAUGE',
  ntfy_visitors_total: 'GAUGE',
  ntfy_users_total: 'GAUGE',
  ntfy_subscribers_total: 'GAUGE',
  ntfy_topics_total: 'GAUGE',
  ntfy_http_requests_total: 'COUNTER',
  tocsin_visitor_evictions_total: 'COUNTER',
};

/** A subscriber that sends its request and then never reads, so the kernel's buffers fill up. */
function stalledClient(port: number, path: string): Promise<Socket> {
  return new Promise((resolve) => {
    const socket = connect({ host: '127.0.0.1', port }, () => {
      socket.write(`GET ${path} HTTP/1.1\r\nHost: localhost\r\n\r\n`);
      socket.pause();
      resolve(socket);
    });
  });
}

describe('metrics — enable-metrics on the main listener', () => {
  let s: TestServer;
  const attachments = tempDir(); // here: an after() registered inside before() would run when before() ends
  before(async () => {
    s = await startTestServer({
      'enable-metrics': true,
      // 127.0.0.1 is exempt from the limits; an X-Forwarded-For address is a limited visitor.
      'behind-proxy': true,
      'visitor-request-limit-exempt-hosts': ['127.0.0.1/32'],
      'visitor-request-limit-burst': 3,
      'visitor-message-daily-limit': 1,
      'visitor-subscription-limit': 1,
      'subscriber-buffer-limit': '16k',
      'attachment-cache-dir': attachments,
      'base-url': 'http://127.0.0.1',
    });
  });
  after(() => s.server.close());

  it('counts publishes, refusals by code, limit hits, a slow subscriber and the state, as parsed from GET /metrics', async () => {
    // Given: publishes (one UnifiedPush, one attachment), and refusals by limits and a bad topic.
    const limited = { 'X-Forwarded-For': '203.0.113.7' };
    assert.equal((await publish(`${s.url}/m-one`, 'first')).status, 200);
    assert.equal((await publish(`${s.url}/m-up?up=1`, 'push')).status, 200);
    assert.equal((await publish(`${s.url}/m-file`, 'x'.repeat(1000), { Filename: 'a.txt' })).status, 200);
    const codes = [];
    for (let i = 0; i < 4; i++) codes.push((await publish(`${s.url}/m-limited`, 'hi', limited)).json.code);
    assert.deepEqual(codes, [undefined, 42908, 42908, 42901]);
    assert.equal((await publish(`${s.url}/metrics`, 'reserved')).json.code, 40010);
    const held = new LineStream(`${s.url}/m-held/json`, { headers: { 'X-Forwarded-For': '203.0.113.8' } });
    assert.equal((await held.nextJson()).event, 'open');
    const refused = await fetch(`${s.url}/m-held/json`, { headers: { 'X-Forwarded-For': '203.0.113.8' } });
    assert.equal(((await refused.json()) as { code: number }).code, 42903);
    const ws = new WsStream(`${s.url}/m-ws/ws`);
    assert.equal((await ws.next()).event, 'open');
    // A subscriber that stops reading is dropped once the kernel's buffers and its 16 KB are full.
    const stalled = await stalledClient(s.port, '/m-slow/json');
    let filled = 0;
    while (s.server.context.counters.slowSubscribersDropped === 0 && filled < 8000) {
      await Promise.all(Array.from({ length: 20 }, () => publish(`${s.url}/m-slow`, 'y'.repeat(4000))));
      filled += 20;
    }
    stalled.destroy();
    assert.equal(s.server.context.counters.slowSubscribersDropped, 1, `not dropped after ${filled} messages`);

    // When: Prometheus scrapes.
    const scrape = await Scrape.of(`${s.url}/metrics`);

    // Then: every ntfy metric is there with ntfy's type; those of absent features are 0.
    for (const [name, type] of Object.entries(ntfyMetrics)) assert.equal(scrape.type(name), type, name);
    for (const name of ['emails_sent', 'emails_received', 'calls_made', 'matrix_published', 'firebase_published']) {
      assert.equal(scrape.value(`ntfy_${name}_success`) + scrape.value(`ntfy_${name}_failure`), 0, name);
    }
    const published = 4 + filled; // m-one, m-up, m-file, the limited visitor's first, the fill
    assert.equal(scrape.value('ntfy_messages_published_success'), published);
    assert.equal(scrape.value('ntfy_messages_published_failure'), 2, 'the two 42908s (past the gate), not 42901 or 40010');
    assert.equal(scrape.value('ntfy_unifiedpush_published_success'), 1);
    assert.equal(scrape.value('ntfy_messages_cached_total'), published);
    assert.equal(scrape.value('ntfy_attachments_total_size'), 1000);
    assert.equal(scrape.value('ntfy_visitors_total'), 3, '127.0.0.1, 203.0.113.7, 203.0.113.8');
    assert.equal(scrape.value('ntfy_users_total'), 0);
    assert.equal(scrape.value('ntfy_subscribers_total'), 2, 'the held stream and the WebSocket');
    assert.equal(scrape.value('ntfy_topics_total'), 7, 'm-one m-up m-file m-limited m-held m-ws m-slow');
    const duration = scrape.value('ntfy_message_publish_duration_ms');
    assert.ok(duration >= 0 && duration < 5000, `publish duration ${duration} ms`);
    assert.deepEqual(scrape.series('ntfy_http_requests_total', ['http_code', 'ntfy_code', 'http_method']), {
      '200 20000 POST': published,
      '200 20000 GET': 3, // the held stream, the WebSocket, the stalled stream
      '429 42908 POST': 2,
      '429 42901 POST': 1,
      '400 40010 POST': 1,
      '429 42903 GET': 1,
    });

    // Tocsin's own: limit hits by code, the dropped subscriber by format, the pipeline.
    assert.deepEqual(scrape.series('tocsin_limit_hits_total', ['code']), { 42908: 2, 42901: 1, 42903: 1 });
    assert.equal(scrape.value('tocsin_visitor_evictions_total'), 0, 'three visitors are far from the bound');
    assert.deepEqual(scrape.series('tocsin_slow_subscribers_dropped_total', ['format']), { json: 1, sse: 0, raw: 0, ws: 0 });
    assert.equal(scrape.type('tocsin_publish_batch_size'), 'HISTOGRAM');
    assert.equal(Number(scrape.sample('tocsin_publish_batch_size')?.sum), published, 'every committed publish in some batch');
    const batches = Number(scrape.sample('tocsin_publish_batch_size')?.count);
    assert.ok(batches >= 5 && batches <= published, `${batches} batches`);
    const commits = scrape.sample('tocsin_commit_latency_seconds');
    assert.equal(scrape.type('tocsin_commit_latency_seconds'), 'HISTOGRAM');
    assert.equal(Number(commits?.count), batches, 'one observation per commit');
    assert.ok(Number(commits?.sum) > 0 && Number(commits?.sum) < 60, `${commits?.sum} s committing`);
    // The MongoDB store's: on the embedded store they exist at 0 (no log, no pool, nothing lost).
    for (const [name, type] of [['tocsin_lost_ranges_total', 'COUNTER'], ['tocsin_lost_positions_total', 'COUNTER'], ['tocsin_log_chain_retries_total', 'COUNTER'], ['tocsin_log_tail_lag_positions', 'GAUGE'], ['tocsin_database_pool_waiters', 'GAUGE']] as const) {
      assert.deepEqual([scrape.type(name), scrape.value(name)], [type, 0], name);
    }
    assert.equal(scrape.type('tocsin_database_pool_wait_seconds'), 'HISTOGRAM');
    assert.equal(Number(scrape.sample('tocsin_database_pool_wait_seconds')?.count), 0);
    const latency = scrape.sample('tocsin_deliver_latency_seconds');
    assert.equal(Number(latency?.count), published, 'one observation per delivered message');
    assert.equal(latency?.buckets?.['+Inf'], String(published));
    assert.ok(scrape.value('process_resident_memory_bytes') > 0);

    held.close();
    ws.close();
  });

  it('a scrape is a request like any other: the next one counts it', async () => {
    const before = (await Scrape.of(`${s.url}/metrics`)).value('ntfy_http_requests_total', { http_code: '200', http_method: 'GET' });
    const next = await Scrape.of(`${s.url}/metrics`);
    assert.equal(next.value('ntfy_http_requests_total', { http_code: '200', http_method: 'GET' }), before + 1);
  });
});

describe('metrics — metrics-listen-http', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ 'enable-metrics': true, 'metrics-listen-http': '127.0.0.1:0' });
  });
  after(() => s.server.close());

  it('serves the metrics on their own port; the main listener answers /metrics as a topic page (404), as ntfy', async () => {
    const port = s.server.metricsPort;
    assert.ok(port !== undefined && port !== s.port, `metrics port ${port}`);
    assert.equal((await publish(`${s.url}/m-own`, 'hello')).status, 200);
    const main = await fetch(`${s.url}/metrics`);
    assert.equal(main.status, 404);
    assert.equal(((await main.json()) as { code: number }).code, 40401);
    const scrape = await Scrape.of(`http://127.0.0.1:${port}/metrics`);
    assert.equal(scrape.value('ntfy_messages_published_success'), 1);
    assert.equal(scrape.value('ntfy_topics_total'), 1);
    assert.deepEqual(scrape.series('ntfy_http_requests_total', ['http_code', 'ntfy_code', 'http_method']), { '200 20000 POST': 1, '404 40401 GET': 1 });
    // As ntfy's promhttp server: any path of that port is the metrics.
    assert.equal((await Scrape.of(`http://127.0.0.1:${port}/`)).value('ntfy_messages_published_success'), 1);
  });
});

describe('metrics — off by default', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer();
  });
  after(() => s.server.close());

  it('/metrics stays the reserved topic name: GET is 404, a publish 40010', async () => {
    assert.equal(s.server.context.metrics, undefined);
    assert.equal(s.server.metricsPort, undefined);
    const res = await fetch(`${s.url}/metrics`);
    assert.deepEqual([res.status, ((await res.json()) as { code: number }).code], [404, 40401]);
    assert.equal((await publish(`${s.url}/metrics`, 'x')).json.code, 40010);
  });
});

/** Five publishes through `s` (a server on a database), then its pool's waits, commits and lost ranges as GET /metrics has them. */
async function assertPoolAndCommits(s: TestServer, topic: string): Promise<Scrape> {
  // given: publishes, each a commit through the driver's pool
  const stream = new LineStream(`${s.url}/${topic}/json`);
  assert.equal((await stream.nextJson()).event, 'open');
  for (let i = 0; i < 5; i++) assert.equal((await publish(`${s.url}/${topic}`, `m${i}`)).status, 200);
  for (let i = 0; i < 5; i++) assert.equal((await stream.nextJson()).message, `m${i}`);
  stream.close();

  // when
  const scrape = await Scrape.of(`${s.url}/metrics`);

  // then: every check-out was waited for and ended; five commits timed; nothing lost
  const waits = scrape.sample('tocsin_database_pool_wait_seconds');
  assert.ok(Number(waits?.count) >= 10, `${waits?.count} check-outs: the commits, the feed's reads, replays`);
  assert.ok(Number(waits?.sum) >= 0 && Number(waits?.sum) < 10, `${waits?.sum} s waiting`);
  assert.equal(scrape.value('tocsin_database_pool_waiters'), 0, 'none waits between requests');
  const commits = scrape.sample('tocsin_commit_latency_seconds');
  assert.equal(Number(commits?.count), 5);
  assert.ok(Number(commits?.sum) > 0, `${commits?.sum} s committing`);
  assert.deepEqual([scrape.value('tocsin_lost_ranges_total'), scrape.value('tocsin_lost_positions_total')], [0, 0]);
  return scrape;
}

describe('metrics — on MongoDB (FerretDB)', { skip: ferretDbSkip() }, () => {
  let ferret: FerretDb;
  let s: TestServer;
  before(async () => {
    ferret = await startFerretDb();
    s = await startTestServer({ 'enable-metrics': true, 'database-url': ferret.url.replace('/?', `/${ferret.databaseName('metrics')}?`) });
  });
  after(async () => {
    await s.server.close();
    await ferret.stop();
  });

  it('pool waits, commit latency and the log\'s series, as parsed from GET /metrics', async () => {
    const scrape = await assertPoolAndCommits(s, 'm-mongo');
    assert.equal(scrape.type('tocsin_log_chain_retries_total'), 'COUNTER');
    assert.equal(scrape.type('tocsin_log_tail_lag_positions'), 'GAUGE');
  });
});

describe('metrics — on PostgreSQL', { skip: postgresSkip() }, () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer({ 'enable-metrics': true, 'database-url': await freshDatabase('metrics') });
  });
  after(() => s.server.close());

  it('pool waits and commit latency, as parsed from GET /metrics', async () => {
    await assertPoolAndCommits(s, 'm-postgres');
  });
});
