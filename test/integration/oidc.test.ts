import { spawnSync } from 'node:child_process';
import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import type { Json } from '../support/clients.js';
import { apiCall, basic } from '../support/account-api.js';
import { followRedirects, startTestProvider, type TestProvider } from '../support/oidc-provider.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';
import { LogCapture } from '../support/log.js';
import { PrefixProxy } from '../support/prefix-proxy.js';
import { freePort } from '../support/web-server.js';

/** Single sign-on through a real OpenID provider (oidc-provider) in this process (issue 38). */

const hash = bcrypt.hashSync('secret', 4);
const cliBin = new URL('../../../bin/tocsin.js', import.meta.url).pathname;
const dir = tempDir();

let s: TestServer;
let idp: TestProvider;
before(async () => {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  idp = await startTestProvider(`${base}/v1/auth/oidc/callback`);
  s = await startTestServer({
    'listen-http': `127.0.0.1:${port}`,
    'base-url': base,
    'auth-file': join(dir, 'auth.db'),
    'auth-users': [`admin:${hash}:admin`, `prov:${hash}:user`],
    'enable-login': true,
    'auth-oidc-issuer': idp.issuer,
    'auth-oidc-client-id': idp.clientId,
    'auth-oidc-client-secret': idp.clientSecret,
    'auth-oidc-admin-groups': ['admins'],
  });
  for (const name of ['ops', 'devs', 'admins']) assert.equal((await apiCall(s.url, 'POST', '/v1/groups', basic('admin'), { name }))[0], 200);
});
after(async () => {
  await s.server.close();
  await idp.close();
});

const callbackOf = (url: URL): boolean => url.pathname === '/v1/auth/oidc/callback';

/** Signs on as `id` from a fresh browser: the callback's answer and the URL it was given. */
async function signOn(id: string, headers: Record<string, string> = { accept: 'text/html' }): Promise<{ status: number; body: string; headers: Headers }> {
  idp.signInAs(id);
  const { res, trail } = await followRedirects(`${s.url}/v1/auth/oidc/login`, headers);
  assert.ok(trail.some((url) => url.startsWith(idp.issuer)), `went through the provider: ${trail.join(' → ')}`);
  return { status: res.status, body: await res.text(), headers: res.headers };
}

/** The session the callback page stores for the web app. */
function sessionOf(page: string, root = '/'): { username: string; token: string; expires: number } {
  const stored = new RegExp(`localStorage\\.setItem\\("tocsin\\.session", (".*?[^\\\\]")\\);location\\.replace\\("${root}"\\)`).exec(page)?.[1];
  assert.ok(stored, page);
  return JSON.parse(JSON.parse(stored) as string) as { username: string; token: string; expires: number };
}

const account = async (token: string): Promise<Json> => (await apiCall(s.url, 'GET', '/v1/account', `Bearer ${token}`))[1];
interface GroupRow {
  name: string;
  members: string[];
}
const groups = async (): Promise<{ groups: GroupRow[] }> => (await apiCall(s.url, 'GET', '/v1/groups', basic('admin')))[1] as unknown as { groups: GroupRow[] };

describe('OpenID Connect sign-on', () => {
  it('/v1/config says single sign-on is on', async () => {
    const [status, config] = await apiCall(s.url, 'GET', '/v1/config');
    assert.equal(status, 200);
    assert.equal(config.auth_oidc, true);
  });

  it('redirects the login to the provider with PKCE, state and nonce', async () => {
    const res = await fetch(`${s.url}/v1/auth/oidc/login`, { redirect: 'manual' });
    assert.equal(res.status, 302);
    const to = new URL(res.headers.get('location') ?? '');
    assert.equal(to.origin, idp.issuer);
    assert.equal(to.searchParams.get('client_id'), 'tocsin');
    assert.equal(to.searchParams.get('redirect_uri'), `${s.url}/v1/auth/oidc/callback`);
    assert.equal(to.searchParams.get('response_type'), 'code');
    assert.equal(to.searchParams.get('code_challenge_method'), 'S256');
    assert.match(to.searchParams.get('code_challenge') ?? '', /^[-_A-Za-z0-9]{43}$/);
    assert.match(to.searchParams.get('state') ?? '', /^[-_A-Za-z0-9]{43}$/);
    assert.match(to.searchParams.get('nonce') ?? '', /^[-_A-Za-z0-9]{43}$/);
  });

  it('creates the user with their groups and hands the web app a working session token', async () => {
    idp.people.set('sub-ana', { preferred_username: 'ana', groups: ['ops', 'unknown-group', 'bad name'] });
    const { status, body, headers } = await signOn('sub-ana');
    assert.equal(status, 200);
    assert.equal(headers.get('cache-control'), 'no-store');
    assert.equal(headers.get('referrer-policy'), 'no-referrer');
    const nonce = /<script nonce="([^"]+)">/.exec(body)?.[1];
    assert.equal(headers.get('content-security-policy'), `default-src 'none'; script-src 'nonce-${nonce}'; base-uri 'none'; frame-ancestors 'none'`);
    const session = sessionOf(body);
    assert.equal(session.username, 'ana');
    assert.match(session.token, /^tk_[a-z0-9]{29}$/);
    const me = await account(session.token);
    assert.equal(me.username, 'ana');
    assert.equal(me.role, 'user');
    assert.deepEqual(await groups(), { groups: [{ name: 'admins', members: [] }, { name: 'devs', members: [] }, { name: 'ops', members: ['ana'] }] });
  });

  it('brings the groups and the admin role in line with the claim at each sign-on', async () => {
    idp.people.set('sub-ben', { preferred_username: 'ben', groups: ['ops', 'admins'] });
    const first = sessionOf((await signOn('sub-ben')).body);
    assert.equal((await account(first.token)).role, 'admin');
    idp.people.set('sub-ben', { preferred_username: 'ben', groups: ['devs'] });
    const second = sessionOf((await signOn('sub-ben')).body);
    assert.equal((await account(second.token)).role, 'user');
    const members = Object.fromEntries((await groups()).groups.map((g) => [g.name, g.members]));
    assert.deepEqual(members, { admins: [], devs: ['ben'], ops: ['ana'] });
  });

  it('refuses a user server.yml provisions, leaving it as it is (40905)', async () => {
    idp.people.set('sub-prov', { preferred_username: 'prov', groups: ['admins', 'ops'] });
    const { status, body } = await signOn('sub-prov', {});
    assert.equal(status, 409);
    assert.equal((JSON.parse(body) as Json).code, 40905);
    const [, users] = await apiCall(s.url, 'GET', '/v1/users', basic('admin'));
    assert.equal((users as unknown as Json[]).find((u) => u.username === 'prov')?.role, 'user');
    assert.ok(!(await groups()).groups.some((g) => g.members.includes('prov')));
  });

  it('refuses a username claim that is no user name (40046)', async () => {
    idp.people.set('sub-bad', { preferred_username: 'not a name' });
    const { status, body } = await signOn('sub-bad', {});
    assert.equal(status, 400);
    assert.equal((JSON.parse(body) as Json).code, 40046);
  });

  it('refuses an unknown state (40080), as JSON to a client and as a page to a browser', async () => {
    const [status, json] = await apiCall(s.url, 'GET', '/v1/auth/oidc/callback?state=forged&code=forged');
    assert.equal(status, 400);
    assert.equal(json.code, 40080);
    assert.match(json.error as string, /single sign-on failed.*unknown or expired/);
    const page = await fetch(`${s.url}/v1/auth/oidc/callback?state=forged&code=forged`, { headers: { accept: 'text/html' } });
    assert.equal(page.status, 400);
    assert.match(page.headers.get('content-type') ?? '', /^text\/html/);
    assert.match(await page.text(), /<h1>Sign-on failed<\/h1><p>invalid request: single sign-on failed.*\(40080\)/);
  });

  it('refuses a forged code for a real state (40080), and the state is then used up', async () => {
    idp.people.set('sub-cy', { preferred_username: 'cy' });
    idp.signInAs('sub-cy');
    const { trail } = await followRedirects(`${s.url}/v1/auth/oidc/login`, {}, (url) => url.origin === idp.issuer);
    const state = new URL(trail.at(-1) ?? '').searchParams.get('state') ?? '';
    const forged = await apiCall(s.url, 'GET', `/v1/auth/oidc/callback?state=${state}&code=forged-code&iss=${encodeURIComponent(idp.issuer)}`);
    assert.deepEqual([forged[0], forged[1].code], [400, 40080]);
    assert.match(forged[1].error as string, /invalid_grant/);
    const again = await apiCall(s.url, 'GET', `/v1/auth/oidc/callback?state=${state}&code=forged-code`);
    assert.deepEqual([again[0], again[1].code], [400, 40080]);
  });

  it('refuses a callback replayed after it signed on (40080)', async () => {
    idp.people.set('sub-di', { preferred_username: 'di' });
    idp.signInAs('sub-di');
    const { res, trail } = await followRedirects(`${s.url}/v1/auth/oidc/login`, {}, callbackOf);
    await res.body?.cancel();
    const callback = trail.at(-1) ?? '';
    const first = await fetch(callback);
    assert.equal(first.status, 200);
    await first.body?.cancel();
    const replay = await fetch(callback);
    assert.equal(replay.status, 400);
    assert.equal(((await replay.json()) as Json).code, 40080);
  });
});

describe('OpenID Connect sign-on behind a proxy that strips a path prefix', () => {
  it('sends the provider back below the prefix, and the page on to the app there; without auth-oidc-admin-groups it never opens an admin made with the CLI (40080)', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}/ntfy`;
    const provider = await startTestProvider(`${base}/v1/auth/oidc/callback`);
    const prefixed = await startTestServer({ 'base-url': base, 'auth-file': join(dir, 'prefixed.db'), 'auth-oidc-issuer': provider.issuer, 'auth-oidc-client-id': provider.clientId, 'auth-oidc-client-secret': provider.clientSecret });
    const proxy = await PrefixProxy.start('/ntfy', prefixed.url, port);
    try {
      provider.people.set('sub-flo', { preferred_username: 'flo' });
      provider.signInAs('sub-flo');
      const { res, trail } = await followRedirects(`${base}/v1/auth/oidc/login`);
      assert.equal(res.status, 200);
      assert.ok(trail.at(-1)?.startsWith(`${base}/v1/auth/oidc/callback?`), trail.join(' → '));
      const session = sessionOf(await res.text(), '/ntfy/');
      assert.equal((await apiCall(base, 'GET', '/v1/account', `Bearer ${session.token}`))[1].username, 'flo');

      // flo made an admin with the CLI: without auth-oidc-admin-groups, whoever the
      // provider lets claim the name must not become that admin
      const promoted = spawnSync(process.execPath, [cliBin, 'user', 'change-role', 'flo', 'admin', '--auth-file', join(dir, 'prefixed.db')], { encoding: 'utf8' });
      assert.equal(promoted.status, 0, promoted.stderr);
      provider.signInAs('sub-flo');
      const refused = await followRedirects(`${base}/v1/auth/oidc/login`, { accept: 'application/json' });
      assert.equal(refused.res.status, 400);
      assert.equal(((await refused.res.json()) as Json).code, 40080);
    } finally {
      await proxy.close();
      await prefixed.server.close();
      await provider.close();
    }
  });
});

describe('OpenID Connect sign-on, off or unreachable', () => {
  it('answers 404 and auth_oidc false without auth-oidc-issuer', async () => {
    const plain = await startTestServer({ 'auth-file': join(dir, 'plain.db') });
    try {
      assert.equal((await apiCall(plain.url, 'GET', '/v1/auth/oidc/login'))[1].code, 40401);
      assert.equal((await apiCall(plain.url, 'GET', '/v1/config'))[1].auth_oidc, false);
    } finally {
      await plain.server.close();
    }
  });

  it('answers 503 (50304) while the provider cannot be reached, and 429 (42901) past the visitor\'s requests', async () => {
    const gone = await freePort();
    const log = new LogCapture('info');
    const down = await startTestServer({
      'base-url': 'http://127.0.0.1:1',
      'auth-file': join(dir, 'down.db'),
      'auth-oidc-issuer': `http://127.0.0.1:${gone}`,
      'auth-oidc-client-id': 'tocsin',
      'auth-oidc-client-secret': 'secret',
      'visitor-request-limit-burst': 2,
      'visitor-request-limit-replenish': '1h',
    }, log.logger);
    try {
      const answer = async (path: string): Promise<[number, unknown]> => {
        const [status, json] = await apiCall(down.url, 'GET', path);
        return [status, json.code];
      };
      assert.deepEqual(await answer('/v1/auth/oidc/login'), [503, 50304]);
      const warning = await log.next((r) => r.msg === 'oidc: the identity provider cannot be reached');
      assert.equal(warning.level, 40);
      assert.match(warning.err as string, /fetch failed/);
      assert.deepEqual(await answer('/v1/auth/oidc/callback?state=a&code=b'), [400, 40080]);
      assert.deepEqual(await answer('/v1/auth/oidc/login'), [429, 42901]);
    } finally {
      await down.server.close();
    }
  });
});
