import assert from 'node:assert/strict';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { builtInWebDir } from '../../src/transports/web/site.js';
import { rawGet } from '../support/clients.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** How Tocsin serves web pages and their files (src/transports/web/), over plain HTTP. */

const browser = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const builtIndex = readFileSync(join(builtInWebDir, 'index.html'));
const builtDashboard = readFileSync(join(builtInWebDir, 'dashboard.html'));
/** The largest hashed script of the build: the one with compressed forms beside it. */
const bundle = readdirSync(join(builtInWebDir, 'static'))
  .filter((name) => name.endsWith('.js'))
  .map((name) => ({ name, bytes: readFileSync(join(builtInWebDir, 'static', name)) }))
  .sort((a, b) => b.bytes.length - a.bytes.length)[0];

let s: TestServer;
let own: TestServer;
let off: TestServer;
let prefixed: TestServer;
const ownRoot = tempDir();
before(async () => {
  writeFileSync(join(ownRoot, 'app.html'), '<!doctype html><title>my ntfy build</title>');
  mkdirSync(join(ownRoot, 'static', 'js'), { recursive: true });
  writeFileSync(join(ownRoot, 'static', 'js', 'app.js'), 'console.log("mine")');
  writeFileSync(join(ownRoot, 'sw.js'), 'self.addEventListener("push", () => {})');
  [s, own, off, prefixed] = await Promise.all([
    startTestServer(),
    startTestServer({ 'web-root': ownRoot }),
    startTestServer({ 'web-root': 'disable' }),
    startTestServer({ 'base-url': 'https://example.com/ntfy/' }),
  ]);
});
after(() => Promise.all([s, own, off, prefixed].map((server) => server.server.close())));

describe('web app — pages for browsers, JSON for everyone else', () => {
  it('serves the app at /, /{topic} and /{server}/{topic} (another server\'s topic) to a browser, uncached so a new build shows at once', async () => {
    for (const path of ['/', '/mytopic', '/ntfy.sh/alerts', '/127.0.0.1:8080/alerts', '/example.com%2Fntfy/alerts']) {
      const page = await rawGet(s.url, path, browser);
      assert.equal(page.status, 200, path);
      assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(page.headers['cache-control'], 'no-cache');
      assert.deepEqual(page.body, builtIndex);
      const again = await rawGet(s.url, path, { ...browser, 'If-None-Match': String(page.headers.etag) });
      assert.deepEqual([again.status, again.body.length], [304, 0]);
    }
  });

  it('serves the app at /account/admin, its relative files below /account/ (the admin pages, issue 38)', async () => {
    const page = await rawGet(s.url, '/account/admin', browser);
    assert.deepEqual([page.status, page.body], [200, builtIndex]);
    const script = /src="\.\/(static\/[^"]+\.js)"/.exec(builtIndex.toString())?.[1] as string;
    assert.equal((await rawGet(s.url, `/account/${script}`)).status, 200, script);
    assert.match((await rawGet(s.url, '/account/config.js')).body.toString(), /app_root/);
    assert.equal((await rawGet(s.url, '/account/static/nothing.js')).status, 404);
  });

  it('keeps a non-browser GET as it was: 404 JSON, and UnifiedPush discovery on /{topic}', async () => {
    for (const path of ['/', '/mytopic', '/dashboard', '/account/admin', '/ntfy.sh/alerts']) {
      const reply = await rawGet(s.url, path, { Accept: '*/*' });
      assert.equal(reply.status, 404, path);
      assert.equal(JSON.parse(reply.body.toString()).code, 40401);
    }
    const discovery = await rawGet(s.url, '/mytopic?up=1', browser);
    assert.deepEqual(JSON.parse(discovery.body.toString()), { unifiedpush: { version: 1 } });
  });

  it('serves the dashboard page at /dashboard to a browser', async () => {
    const page = await rawGet(s.url, '/dashboard', browser);
    assert.equal(page.status, 200);
    assert.deepEqual(page.body, builtDashboard);
  });
});

describe('web app — Content-Security-Policy (issue 33)', () => {
  const strict =
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data: https:; connect-src 'self' https: http: wss: ws:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'";

  it('serves the app at /, /{topic}, /{server}/{topic} and the dashboard with the strict policy, on 200 and 304 alike', async () => {
    for (const path of ['/', '/mytopic', '/ntfy.sh/alerts', '/dashboard']) {
      const page = await rawGet(s.url, path, browser);
      assert.equal(page.headers['content-security-policy'], strict, path);
      const again = await rawGet(s.url, path, { ...browser, 'If-None-Match': String(page.headers.etag) });
      assert.equal(again.headers['content-security-policy'], strict, `${path} 304`);
    }
  });

  it('lets the app connect to any server over http(s) and ws(s), behind a prefix too: it subscribes to other servers (issue 40)', async () => {
    const page = await rawGet(prefixed.url, '/mytopic', browser);
    assert.equal(page.headers['content-security-policy'], strict);
  });

  it('gives another build (web-root a directory) only the directives that break nothing', async () => {
    const page = await rawGet(own.url, '/mytopic', browser);
    assert.equal(page.headers['content-security-policy'], "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'");
  });
});

describe('web app — static files', () => {
  it('sends a hashed file in the best encoding accepted, cached for a year', async () => {
    assert.ok(bundle && /-[A-Za-z0-9_-]{8}\.js$/.test(bundle.name), `a hashed bundle: ${bundle?.name}`);
    const path = `/static/${bundle.name}`;
    const br = await rawGet(s.url, path, { 'Accept-Encoding': 'gzip, deflate, br' });
    const gzip = await rawGet(s.url, path, { 'Accept-Encoding': 'gzip' });
    const plain = await rawGet(s.url, path);
    assert.deepEqual([br.headers['content-encoding'], gzip.headers['content-encoding'], plain.headers['content-encoding']], ['br', 'gzip', undefined]);
    assert.deepEqual(brotliDecompressSync(br.body), bundle.bytes);
    assert.deepEqual(gunzipSync(gzip.body), bundle.bytes);
    assert.deepEqual(plain.body, bundle.bytes);
    assert.ok(br.body.length < gzip.body.length && gzip.body.length < plain.body.length / 2, `${br.body.length} < ${gzip.body.length} < ${plain.body.length}/2`);
    for (const reply of [br, gzip, plain]) {
      assert.equal(reply.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(reply.headers.vary, 'Accept-Encoding');
      assert.equal(reply.headers['content-type'], 'text/javascript; charset=utf-8');
    }
  });

  it('serves the files the page of another server\'s topic asks for relative to it (/{server}/static/…, /{server}/config.js)', async () => {
    const file = await rawGet(s.url, `/ntfy.sh/static/${bundle?.name}`);
    assert.deepEqual([file.status, file.body], [200, bundle?.bytes]);
    const config = await rawGet(s.url, '/127.0.0.1:8080/config.js');
    assert.deepEqual([config.status, config.body.toString()], [200, (await rawGet(s.url, '/config.js')).body.toString()]);
    assert.equal((await rawGet(s.url, '/ntfy.sh/static/nope.js')).status, 404);
  });

  it('answers 404 for a file the build does not hold, or one outside it', async () => {
    for (const path of ['/static/nope.js', '/static/../package.json', '/static/%2e%2e/package.json', '/package.json']) {
      assert.equal((await rawGet(s.url, path)).status, 404, path);
    }
  });
});

describe('web app — web-root', () => {
  it('serves a build of ntfy\'s web app from a directory with the same routing (app.html as its page)', async () => {
    for (const path of ['/', '/mytopic', '/dashboard']) {
      const page = await rawGet(own.url, path, browser);
      assert.equal(page.body.toString(), '<!doctype html><title>my ntfy build</title>', path);
    }
    assert.equal((await rawGet(own.url, '/static/js/app.js')).body.toString(), 'console.log("mine")');
    assert.equal((await rawGet(own.url, '/sw.js')).headers['cache-control'], 'no-cache');
    assert.equal((await rawGet(own.url, `/static/${bundle?.name}`)).status, 404);
  });

  it('turns the pages and /config.js off with disable; the API stays', async () => {
    for (const path of ['/', '/mytopic', '/config.js', `/static/${bundle?.name}`]) {
      assert.equal((await rawGet(off.url, path, browser)).status, 404, path);
    }
    assert.equal((await rawGet(off.url, '/v1/config')).status, 200);
  });

  it('refuses to start with a web-root that is no directory', async () => {
    await assert.rejects(startTestServer({ 'web-root': join(ownRoot, 'missing') }), /web-root .*missing is not a directory/);
    await assert.rejects(startTestServer({ 'web-root': join(ownRoot, 'static') }), /holds neither index\.html nor app\.html/);
  });
});

describe('web app — /config.js behind a path prefix', () => {
  it('gives the prefix as base_url and app_root when base-url has a path, ntfy\'s answer otherwise', async () => {
    const config = (script: Buffer): { base_url: string; app_root: string } => JSON.parse(script.toString().replace(/^[^{]*/, '').replace(/;\s*$/, ''));
    const withPath = config((await rawGet(prefixed.url, '/config.js')).body);
    assert.deepEqual([withPath.base_url, withPath.app_root], ['https://example.com/ntfy', '/ntfy/']);
    const plain = config((await rawGet(s.url, '/config.js')).body);
    assert.deepEqual([plain.base_url, plain.app_root], ['', '/']);
  });
});
