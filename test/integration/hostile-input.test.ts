import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import webpush from 'web-push';
import { spawnServer, tempDir, type ChildServer } from '../support/server.js';

/**
 * Issue 33's reproducers, one client after another against one server in its own process
 * on its defaults (with Web Push and templates on): each attack is refused or answered
 * quickly, /v1/health answers within 200 ms throughout, and the server's memory stays
 * within 200 MB of where it started. Each finding has its own tests in its area; this run
 * checks them together, as one attacker would send them.
 */
const vapid = webpush.generateVAPIDKeys();
const dir = tempDir();
const starting = spawnServer([
  '--base-url', 'http://tocsin.test',
  '--cache-file', join(dir, 'cache.db'),
  '--web-push-public-key', vapid.publicKey,
  '--web-push-private-key', vapid.privateKey,
  '--web-push-file', join(dir, 'webpush.db'),
  '--web-push-email-address', 'admin@tocsin.test',
  '--global-topic-limit', '2000',
]);
let server: ChildServer;
before(async () => {
  server = await starting;
});

/** The server process's resident memory in bytes, from /proc. */
function rss(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}

/** Asks /v1/health every 20 ms until stopped; keeps the slowest answer and the largest RSS seen. */
class Watch {
  slowestMs = 0;
  peakRss = 0;
  private running = true;
  private readonly done: Promise<void>;

  constructor(private readonly server: ChildServer) {
    this.done = this.loop();
  }

  async stop(): Promise<void> {
    this.running = false;
    await this.done;
  }

  private async loop(): Promise<void> {
    while (this.running) {
      const started = performance.now();
      const res = await fetch(`${this.server.url}/v1/health`);
      assert.deepEqual(await res.json(), { healthy: true });
      this.slowestMs = Math.max(this.slowestMs, performance.now() - started);
      this.peakRss = Math.max(this.peakRss, rss(this.server.child.pid as number));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}

interface Answer {
  status: number;
  code: number | undefined;
  ms: number;
  text: string;
}

async function request(path: string, init: RequestInit = {}): Promise<Answer> {
  const started = performance.now();
  const res = await fetch(`${server.url}${path}`, init);
  const text = await res.text();
  let code: number | undefined;
  try {
    code = (JSON.parse(text) as { code?: number }).code;
  } catch {
    code = undefined;
  }
  return { status: res.status, code, ms: performance.now() - started, text };
}

const post = (path: string, body: string, headers: Record<string, string> = {}): Promise<Answer> => request(path, { method: 'POST', body, headers });

/** A Go template that builds 2^depth shared references in `depth` steps, then walks them with `walk`. */
const sharedStructure = (depth: number, walk: string): string => `{{$x := list 1}}{{range $i := until ${depth}}}{{$x = list $x $x}}{{end}}{{${walk}}}`;

describe('hostile input — one client sends every reproducer of issue 33', () => {
  let watch: Watch;
  let startRss = 0;
  before(() => {
    startRss = rss(server.child.pid as number);
    watch = new Watch(server);
  });
  after(async () => {
    await watch.stop();
  });

  it('1: a poll naming one large topic 1,500 times is answered once per message, quickly', async () => {
    const body = 'b'.repeat(3900);
    for (let i = 0; i < 55; i++) assert.equal((await post('/big', body, { Title: 't'.repeat(1024) })).status, 200);
    const copies = await request(`/${Array(1500).fill('big').join(',')}/json?poll=1`);
    assert.equal(copies.status, 200);
    assert.equal(copies.text.trim().split('\n').length, 55, 'each message once');
    assert.ok(copies.ms < 1000, `answered in ${copies.ms} ms`);
    const distinct = await request(`/${Array.from({ length: 1500 }, (_, i) => `big${i}`).join(',')}/json?poll=1`);
    assert.deepEqual([distinct.status, distinct.code], [400, 40090], distinct.text);
  });

  it('2: a template walking shared structure is compared as Go does, or stopped by its work budget (40055)', async () => {
    for (const depth of [24, 40]) {
      // Go's reflect.DeepEqual answers at once for a pair it has seen: ntfy renders `true`.
      const compared = await post('/tpl', '{}', { Template: 'yes', Message: sharedStructure(depth, 'deepEqual $x $x') });
      assert.deepEqual([compared.status, JSON.parse(compared.text).message], [200, 'true'], compared.text);
      assert.ok(compared.ms < 1000, `deepEqual at depth ${depth} answered in ${compared.ms} ms`);
    }
    const printed = await post('/tpl', '{}', { Template: 'yes', Message: sharedStructure(40, 'toJSON $x') });
    // The work budget or deadline (40055), or on a fast machine the size bound of what it prints (40045).
    assert.equal(printed.status, 400, printed.text);
    assert.ok(printed.code === 40055 || (printed.code === 40045 && /longer than|output exceeds/.test(printed.text)), printed.text);
    assert.ok(printed.ms < 1000, `toJSON at depth 40 answered in ${printed.ms} ms`);
  });

  it('3: a 60 KB encoded-word header is refused before it is decoded (431)', async () => {
    const answer = await post('/hdr', 'x', { 'X-Template': `=?a?B?${'!'.repeat(60_000)}?=` });
    assert.deepEqual([answer.status, answer.code], [431, 43101], answer.text);
    assert.ok(answer.ms < 500, `answered in ${answer.ms} ms`);
  });

  it('4: a delay of "jan" and 60,000 spaces is refused at once (431; 40006 when it fits the header cap)', async () => {
    const huge = await post('/delay', 'x', { 'X-Delay': `jan${' '.repeat(60_000)}!` });
    assert.deepEqual([huge.status, huge.code], [431, 43101], huge.text);
    const fits = await post('/delay', 'x', { 'X-Delay': `jan${' '.repeat(7_000)}!` });
    assert.deepEqual([fits.status, fits.code], [400, 40006], fits.text);
    assert.ok(huge.ms < 500 && fits.ms < 500, `answered in ${huge.ms} and ${fits.ms} ms`);
  });

  it('5: a Web Push endpoint that smuggles another host past the allow-list is refused (40039)', async () => {
    const endpoint = 'https://127.0.0.1:18299\\x.google.com/../../internal/admin?action=restart';
    const answer = await post('/v1/webpush', JSON.stringify({ endpoint, auth: 'YXV0aA', p256dh: 'cDI1NmRo', topics: ['big'] }));
    assert.deepEqual([answer.status, answer.code], [400, 40039], answer.text);
  });

  it('6: polls of thousands of fresh topics leave the topic table as it was', async () => {
    for (let poll = 0; poll < 16; poll++) {
      const topics = Array.from({ length: 250 }, (_, i) => `p${poll}x${i}`);
      assert.equal((await request(`/${topics.join(',')}/json?poll=1`)).status, 200);
    }
    const fresh = await post('/after-polls', 'still open');
    assert.equal(fresh.status, 200, fresh.text);
  });

  it('7: a 70 KB title is refused, and a 1 KB one stored', async () => {
    const long = await post('/titles', 'x', { Title: 't'.repeat(70_000) });
    assert.ok([400, 431].includes(long.status), long.text);
    assert.ok([40057, 43101].includes(long.code as number), long.text);
    const json = await post('/', JSON.stringify({ topic: 'titles', message: 'x', title: 't'.repeat(1025) }));
    assert.deepEqual([json.status, json.code], [400, 40057], json.text);
    assert.equal((await post('/titles', 'x', { Title: 't'.repeat(1024) })).status, 200);
  });

  it('8: javascript: links are refused at publish, and the web app has a Content-Security-Policy', async () => {
    const click = await post('/links', 'x', { Click: 'javascript:alert(document.cookie)' });
    assert.deepEqual([click.status, click.code], [400, 40092], click.text);
    const action = await post('/links', 'x', { Actions: 'view, Open, javascript:alert(1)' });
    assert.deepEqual([action.status, action.code], [400, 40018], action.text);
    const page = await fetch(`${server.url}/links`, { headers: { Accept: 'text/html' } });
    await page.text();
    assert.match(page.headers.get('content-security-policy') ?? '', /script-src 'self'/);
  });

  it('the server stayed responsive and its memory bounded throughout', async (t) => {
    await watch.stop();
    t.diagnostic(`slowest /v1/health ${watch.slowestMs.toFixed(1)} ms; RSS ${(startRss / 2 ** 20).toFixed(0)} MB at start, ${(watch.peakRss / 2 ** 20).toFixed(0)} MB at most`);
    assert.equal(server.child.exitCode, null, 'still running');
    assert.ok(watch.slowestMs < 200, `slowest /v1/health: ${watch.slowestMs.toFixed(1)} ms`);
    assert.ok(watch.peakRss - startRss < 200 * 1024 * 1024, `RSS grew ${((watch.peakRss - startRss) / 2 ** 20).toFixed(0)} MB`);
  });
});
