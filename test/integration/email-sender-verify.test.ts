import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import type { RawValues } from '../../src/config/load.js';
import { apiCall } from '../support/account-api.js';
import type { Json } from '../support/clients.js';
import { Scrape } from '../support/prometheus.js';
import { SmtpSink } from '../support/smtp.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** X-Email to verified addresses only (smtp-sender-verify, ntfy 2.21) and `X-Email: yes` (ntfy 2.25), against a real relay. */

const baseUrl = 'http://tocsin.test';
const hash = bcrypt.hashSync('secret', 4);
const basic = (user: string): string => `Basic ${Buffer.from(`${user}:secret`).toString('base64')}`;

async function world(settings: RawValues): Promise<{ s: TestServer; sink: SmtpSink }> {
  const sink = await SmtpSink.start();
  const s = await startTestServer({
    'base-url': baseUrl,
    'auth-file': join(tempDir(), 'auth.db'),
    'auth-users': [`ben:${hash}:user`, `alice:${hash}:user`],
    'smtp-sender-addr': sink.address,
    'smtp-sender-from': 'tocsin@example.com',
    'enable-metrics': true,
    ...settings,
  });
  after(() => s.server.close());
  return { s, sink };
}

/** Adds and verifies `address` for `user`, taking the verification mail out of the sink. */
async function verify(s: TestServer, sink: SmtpSink, user: string, address: string): Promise<void> {
  assert.equal((await apiCall(s.url, 'PUT', '/v1/account/email', basic(user), { email: address }))[0], 200);
  const token = /\/account\/email\/verify\/([-_A-Za-z0-9]+)/.exec((await sink.mails.take(5000)).parsed.text ?? '')?.[1];
  assert.equal((await apiCall(s.url, 'POST', '/v1/account/email/verify', undefined, { token }))[0], 200);
}

async function publish(s: TestServer, topic: string, headers: Record<string, string>): Promise<[number, number | undefined]> {
  const res = await fetch(`${s.url}/${topic}`, { method: 'POST', body: 'hello', headers });
  const json = (await res.json()) as Json;
  return [res.status, json.code as number | undefined];
}

describe('smtp-sender-verify — X-Email only to the publisher\'s verified addresses', () => {
  it('anonymous 40053, an address the user did not verify 40052, a verified one mailed; every alias; refusals publish nothing and are counted', async () => {
    const { s, sink } = await world({ 'smtp-sender-verify': true });
    assert.deepEqual(await publish(s, 'v', { 'X-Email': 'ben@example.com' }), [400, 40053]);
    assert.deepEqual(await publish(s, 'v', { Email: 'ben@example.com', Authorization: basic('ben') }), [400, 40052]);
    await verify(s, sink, 'ben', 'ben@example.com');
    assert.deepEqual(await publish(s, 'v', { 'E-Mail': 'other@example.com', Authorization: basic('ben') }), [400, 40052]);
    assert.deepEqual(await publish(s, 'v', { Mail: 'ben@example.com', Authorization: basic('alice') }), [400, 40052], 'verified by someone else');
    assert.equal((await fetch(`${s.url}/v/json?poll=1`)).status, 200);
    assert.equal(await (await fetch(`${s.url}/v/json?poll=1`)).text(), '', 'nothing refused was published');
    assert.deepEqual(await publish(s, 'v?e=ben%40example.com', { Authorization: basic('ben') }), [200, undefined]);
    assert.deepEqual((await sink.mails.take(5000)).to, ['ben@example.com']);
    const json = await fetch(`${s.url}/`, { method: 'POST', headers: { Authorization: basic('ben') }, body: JSON.stringify({ topic: 'v', message: 'as JSON', email: 'ben@example.com' }) });
    assert.equal(json.status, 200);
    assert.deepEqual((await sink.mails.take(5000)).to, ['ben@example.com']);
    const scrape = await Scrape.of(`${s.url}/metrics`);
    assert.equal(scrape.value('ntfy_http_requests_total', { http_code: '400', ntfy_code: '40052', http_method: 'POST' }), 3);
    assert.equal(scrape.value('ntfy_http_requests_total', { http_code: '400', ntfy_code: '40053', http_method: 'POST' }), 1);
  });
});

describe('X-Email: yes — the user\'s own address (with or without smtp-sender-verify)', () => {
  it('the primary address; else the first verified one; anonymous 40053, none verified 40052; a literal address goes as is without verification', async () => {
    const { s, sink } = await world({});
    assert.deepEqual(await publish(s, 'y', { 'X-Email': 'yes' }), [400, 40053]);
    assert.deepEqual(await publish(s, 'y', { 'X-Email': 'yes', Authorization: basic('ben') }), [400, 40052]);
    assert.deepEqual(await publish(s, 'y', { 'X-Email': 'anyone@example.com' }), [200, undefined], 'smtp-sender-verify is off');
    assert.deepEqual((await sink.mails.take(5000)).to, ['anyone@example.com']);
    await verify(s, sink, 'ben', 'b@example.com');
    await verify(s, sink, 'ben', 'a@example.com');
    assert.deepEqual(await publish(s, 'y', { 'X-Email': '1', Authorization: basic('ben') }), [200, undefined]);
    assert.deepEqual((await sink.mails.take(5000)).to, ['b@example.com'], 'the primary, not the first by its text');
    assert.equal((await apiCall(s.url, 'DELETE', '/v1/account/email', basic('ben'), { email: 'b@example.com' }))[0], 200);
    assert.deepEqual(await publish(s, 'y', { 'X-Email': 'true', Authorization: basic('ben') }), [200, undefined]);
    assert.deepEqual((await sink.mails.take(5000)).to, ['a@example.com'], 'no primary: the first verified');
  });
});
