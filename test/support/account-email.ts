import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after } from 'node:test';
import bcrypt from 'bcryptjs';
import type { RawValues } from '../../src/config/load.js';
import { apiCall } from './account-api.js';
import type { Json } from './clients.js';
import { SmtpSink, type Received } from './smtp.js';
import { startTestServer, tempDir, type TestServer } from './server.js';

/**
 * A real server with an auth-file mailing through the local SMTP peer, for the tests of
 * account e-mail addresses: users `ben` and `alice` (password `secret`) and the
 * provisioned `prov`.
 */

export const baseUrl = 'http://tocsin.test';
export const hash = bcrypt.hashSync('secret', 4);
export const basic = (user: string, password = 'secret'): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

export interface World {
  s: TestServer;
  sink: SmtpSink;
  call: (method: string, path: string, authorization?: string, body?: unknown) => Promise<[number, Json]>;
}

export async function world(settings: RawValues = {}): Promise<World> {
  const sink = await SmtpSink.start();
  const s = await startTestServer({
    'base-url': baseUrl,
    'auth-file': join(tempDir(), 'auth.db'),
    'auth-users': [`prov:${hash}:user`],
    'enable-login': true,
    'smtp-sender-addr': sink.address,
    'smtp-sender-from': 'tocsin@example.com',
    'visitor-auth-failure-limit-burst': 1000,
    ...settings,
  });
  after(() => s.server.close());
  for (const name of ['ben', 'alice']) await s.server.context.access!.store.addUser(name, hash, 'user');
  return { s, sink, call: (method, path, authorization, body) => apiCall(s.url, method, path, authorization, body) };
}

/** The token of the link in a mail, checking the link's path. */
export function tokenIn(mail: Received, kind: 'email/verify' | 'password/reset'): string {
  const match = new RegExp(`${baseUrl}/account/${kind}/([-_A-Za-z0-9]+)`).exec(mail.parsed.text ?? '');
  assert.ok(match?.[1], `no ${kind} link in: ${mail.parsed.text}`);
  return match[1];
}

/** Adds `address` to `user`'s account and follows the link mailed to it. */
export async function verified(w: World, user: string, address: string): Promise<void> {
  assert.deepEqual(await w.call('PUT', '/v1/account/email', basic(user), { email: address }), [200, { success: true }]);
  const mail = await w.sink.mails.take(5000);
  assert.deepEqual(mail.to, [address]);
  assert.deepEqual(await w.call('POST', '/v1/account/email/verify', undefined, { token: tokenIn(mail, 'email/verify') }), [200, { success: true }]);
}

