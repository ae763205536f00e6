import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { HttpError } from '../../src/model/errors.js';
import { credentials } from '../../src/transports/http/credentials.js';
import type { RequestInfo } from '../../src/transports/http/request.js';

const req = (headers: Record<string, string> = {}, query: Record<string, string> = {}): RequestInfo => ({
  method: 'GET',
  path: '/t/json',
  headers: new Map(Object.entries(headers)),
  query: new Map(Object.entries(query)),
  remoteAddress: '127.0.0.1',
  seen: {},
});
const basic = (userPass: string): string => `Basic ${Buffer.from(userPass).toString('base64')}`;
const raw = (s: string): string => Buffer.from(s).toString('base64url');

describe('credentials', () => {
  it('Basic user:password (the password may hold colons), Bearer tokens, and Basic with an empty user as a token', () => {
    assert.deepEqual(credentials(req({ authorization: basic('phil:se:cret') })), { kind: 'password', username: 'phil', password: 'se:cret' });
    assert.deepEqual(credentials(req({ authorization: 'Bearer tk_abc ' })), { kind: 'token', token: 'tk_abc' });
    assert.deepEqual(credentials(req({ authorization: 'bearer tk_abc' })), { kind: 'token', token: 'tk_abc' });
    assert.deepEqual(credentials(req({ authorization: basic(':tk_abc') })), { kind: 'token', token: 'tk_abc' });
  });

  it('the auth query parameter holds the whole header value in unpadded base64 and wins over the header', () => {
    assert.deepEqual(credentials(req({}, { auth: raw(basic('ann:pw')) })), { kind: 'password', username: 'ann', password: 'pw' });
    assert.deepEqual(credentials(req({ authorization: basic('x:y') }, { authorization: raw('Bearer tk_q') })), { kind: 'token', token: 'tk_q' });
  });

  it('no header or another scheme is anonymous; a broken value is 40101', () => {
    assert.deepEqual(credentials(req()), { kind: 'anonymous' });
    assert.deepEqual(credentials(req({ authorization: 'vapid t=abc' })), { kind: 'anonymous' });
    for (const bad of [req({ authorization: basic('no-colon') }), req({}, { auth: 'not base64!' })]) {
      assert.throws(() => credentials(bad), (err: unknown) => err instanceof HttpError && err.code === 40101);
    }
  });
});
