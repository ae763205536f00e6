import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { builtInDocsDir } from '../../src/transports/web/docs-site.js';
import { rawGet } from '../support/clients.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** The docs site at /docs (src/transports/web/docs-site.ts), as `npm run build` makes it, over plain HTTP. */

const browser = { Accept: 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8' };
const built = (path: string): Buffer => readFileSync(join(builtInDocsDir, path));
/** The site's stylesheet: hashed by Vite, compressed beside it by tools/compress-web.mjs. */
const stylesheet = readdirSync(join(builtInDocsDir, 'assets')).find((name) => /^style\..+\.css$/.test(name)) ?? '';

let s: TestServer;
let prefixed: TestServer;
let off: TestServer;
before(async () => {
  [s, prefixed, off] = await Promise.all([startTestServer(), startTestServer({ 'base-url': 'https://example.com/ntfy/' }), startTestServer({ 'web-root': 'disable' })]);
});
after(() => Promise.all([s, prefixed, off].map((server) => server.server.close())));

describe('docs site — pages', () => {
  it('serves /docs/ and a page by its clean URL as built, uncached, revalidated by ETag', async () => {
    for (const [path, file] of [['/docs/', 'index.html'], ['/docs/configuration', 'configuration.html'], ['/docs/configuration.html', 'configuration.html']] as const) {
      const page = await rawGet(s.url, path, browser);
      assert.equal(page.status, 200, path);
      assert.equal(page.headers['content-type'], 'text/html; charset=utf-8');
      assert.equal(page.headers['cache-control'], 'no-cache');
      assert.deepEqual(page.body, built(file), path);
      const again = await rawGet(s.url, path, { ...browser, 'If-None-Match': String(page.headers.etag) });
      assert.deepEqual([again.status, again.body.length], [304, 0]);
    }
    assert.match(built('configuration.html').toString(), /<td>cache-duration<\/td>/);
  });

  it('sends /docs on to /docs/ by a relative Location, as ntfy does, so a path prefix stays', async () => {
    const reply = await rawGet(s.url, '/docs');
    assert.deepEqual([reply.status, reply.statusMessage, reply.headers.location], [301, 'Moved Permanently', 'docs/']);
  });

  it('answers a page it does not have with 404: VitePress\'s page to a browser, ntfy\'s error to anyone else', async () => {
    const page = await rawGet(s.url, '/docs/nope', browser);
    assert.equal(page.status, 404);
    assert.deepEqual(page.body, built('404.html'));
    for (const path of ['/docs/nope', '/docs/assets/nope.js', '/docs/../package.json', '/docs/%2e%2e/package.json', '/docs/configuration/']) {
      const reply = await rawGet(s.url, path);
      assert.equal(reply.status, 404, path);
      assert.equal(JSON.parse(reply.body.toString()).code, 40401, path);
    }
  });

  it('serves each page with a policy naming its own inline scripts by hash and nothing from elsewhere', async () => {
    const page = await rawGet(s.url, '/docs/configuration', browser);
    const policy = String(page.headers['content-security-policy']);
    assert.match(policy, /^default-src 'self'; script-src 'self'( 'sha256-[A-Za-z0-9+/]{43}=')+; style-src 'self' 'unsafe-inline'; img-src 'self' data:; object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'$/);
    assert.doesNotMatch(page.body.toString(), /(?:src|href)="https?:/, 'nothing loaded from another site');
  });
});

describe('docs site — files', () => {
  it('sends a hashed asset in the best encoding accepted, cached for a year', async () => {
    const path = `/docs/assets/${stylesheet}`;
    const bytes = built(`assets/${stylesheet}`);
    const br = await rawGet(s.url, path, { 'Accept-Encoding': 'gzip, deflate, br' });
    const gzip = await rawGet(s.url, path, { 'Accept-Encoding': 'gzip' });
    const plain = await rawGet(s.url, path);
    assert.deepEqual([br.headers['content-encoding'], gzip.headers['content-encoding'], plain.headers['content-encoding']], ['br', 'gzip', undefined]);
    assert.deepEqual(brotliDecompressSync(br.body), bytes);
    assert.deepEqual(gunzipSync(gzip.body), bytes);
    assert.deepEqual(plain.body, bytes);
    for (const reply of [br, gzip, plain]) {
      assert.equal(reply.headers['content-type'], 'text/css; charset=utf-8');
      assert.equal(reply.headers['cache-control'], 'public, max-age=31536000, immutable');
      assert.equal(reply.headers['content-security-policy'], undefined);
    }
  });

  it('is off with web-root disable, as ntfy\'s docs go with its web app', async () => {
    for (const path of ['/docs', '/docs/', '/docs/configuration', `/docs/assets/${stylesheet}`]) {
      assert.equal((await rawGet(off.url, path, browser)).status, 404, path);
    }
  });
});

describe('docs site — behind a path prefix', () => {
  it('names every URL of the site below the prefix base-url has, compressed again', async () => {
    const page = await rawGet(prefixed.url, '/docs/configuration', { ...browser, 'Accept-Encoding': 'br' });
    const html = brotliDecompressSync(page.body).toString();
    assert.ok(html.includes(`href="/ntfy/docs/assets/${stylesheet}"`), 'the stylesheet below /ntfy');
    assert.doesNotMatch(html, /"\/docs\//);
    assert.equal(html, built('configuration.html').toString().replaceAll('"/docs/', '"/ntfy/docs/'));
    const script = readdirSync(join(builtInDocsDir, 'assets', 'chunks')).find((name) => name.startsWith('metadata.')) ?? '';
    const metadata = await rawGet(prefixed.url, `/docs/assets/chunks/${script}`);
    assert.match(metadata.body.toString(), /\\"base\\":\\"\/ntfy\/docs\/\\"/);
  });
});
