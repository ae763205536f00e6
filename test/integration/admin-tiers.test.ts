import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import type { Json } from '../support/clients.js';
import { apiCall, basic, statusAndCode as code } from '../support/account-api.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/** The admin API's tiers: GET/POST/PUT/DELETE /v1/tiers, what `tocsin tier` does (issue 38). */

const hash = bcrypt.hashSync('secret', 4);

let s: TestServer;
before(async () => {
  s = await startTestServer({
    'auth-file': join(tempDir(), 'auth.db'),
    'auth-default-access': 'deny-all',
    'auth-users': [`admin:${hash}:admin`, `phil:${hash}:user`],
    'visitor-auth-failure-limit-burst': 100,
  });
});
after(() => s.server.close());

const call = (method: string, path: string, authorization?: string, body?: unknown): Promise<[number, Json]> => apiCall(s.url, method, path, authorization, body);
const admin = basic('admin');
const ok: [number, Json] = [200, { success: true }];

/** `tocsin tier add`'s defaults (ntfy's), in seconds and bytes. */
const defaults = {
  messages: 5000,
  messages_expiry_duration: 43200,
  emails: 20,
  calls: 0,
  reservations: 3,
  attachment_file_size: 15 * 1024 * 1024,
  attachment_total_size: 100 * 1024 * 1024,
  attachment_expiry_duration: 21600,
  attachment_bandwidth: 1024 * 1024 * 1024,
};

describe('admin API — tiers', () => {
  it('adds a tier with the CLI\'s defaults, changes some limits by number and by word, lists and removes it', async () => {
    assert.deepEqual(await call('GET', '/v1/tiers', admin), [200, []]);
    assert.deepEqual(await call('POST', '/v1/tiers', admin, { code: 'pro', name: 'Pro', limits: { messages: 10000 } }), ok);
    assert.deepEqual(await call('GET', '/v1/tiers', admin), [200, [{ code: 'pro', name: 'Pro', limits: { ...defaults, messages: 10000 } }]]);
    assert.deepEqual(await call('PUT', '/v1/tiers', admin, { code: 'pro', limits: { emails: 50, messages_expiry_duration: '1d', attachment_file_size: '2M' } }), ok);
    assert.deepEqual(await call('GET', '/v1/tiers', admin), [200, [{ code: 'pro', name: 'Pro', limits: { ...defaults, messages: 10000, emails: 50, messages_expiry_duration: 86400, attachment_file_size: 2 * 1024 * 1024 } }]]);
    assert.deepEqual(await call('PUT', '/v1/tiers', admin, { code: 'pro', name: 'Professional' }), ok);
    assert.equal(((await call('GET', '/v1/tiers', admin))[1] as unknown as Json[])[0]?.name, 'Professional');
    assert.deepEqual(await call('DELETE', '/v1/tiers', admin, { code: 'pro' }), ok);
    assert.deepEqual(await call('GET', '/v1/tiers', admin), [200, []]);
  });

  it('names a tier after its code when no name is given, and gives a user on it its limits', async () => {
    assert.deepEqual(await call('POST', '/v1/tiers', admin, { code: 'basic', limits: { reservations: 7 } }), ok);
    assert.deepEqual(await call('PUT', '/v1/users', admin, { username: 'phil', tier: 'basic' }), ok);
    const [, account] = await call('GET', '/v1/account', basic('phil'));
    assert.deepEqual(account.tier, { code: 'basic', name: 'basic' });
    assert.equal((account.limits as Json).reservations, 7);
    assert.deepEqual(await code(call('DELETE', '/v1/tiers', admin, { code: 'basic' })), [409, 40913], 'in use');
    assert.deepEqual(await call('PUT', '/v1/users', admin, { username: 'phil', tier: null }), ok);
    assert.deepEqual(await call('DELETE', '/v1/tiers', admin, { code: 'basic' }), ok);
  });

  it('answers bad input with ntfy-style rows and changes nothing', async () => {
    await call('POST', '/v1/tiers', admin, { code: 'gold' });
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, { code: 'gold' })), [409, 40912]);
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, { code: 'bad code' })), [400, 40000]);
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, { code: 'x'.repeat(65) })), [400, 40000]);
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, {})), [400, 40000]);
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, { code: 7 })), [400, 40024]);
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, 'not json')), [400, 40024]);
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, { code: 'silver', name: 'n'.repeat(257) })), [400, 40000]);
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, { code: 'silver', limits: { messages: -1 } })), [400, 40000]);
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, { code: 'silver', limits: { messages: 1.5 } })), [400, 40000]);
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, { code: 'silver', limits: { messages: 1e300 } })), [400, 40000]);
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, { code: 'silver', limits: { messages_expiry_duration: 'soon' } })), [400, 40000]);
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, { code: 'silver', limits: { attachment_file_size: '-5M' } })), [400, 40000]);
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, { code: 'silver', limits: { message_limit: 5 } })), [400, 40000], 'unknown limit');
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, { code: 'silver', limits: { messages: true } })), [400, 40024]);
    assert.deepEqual(await code(call('POST', '/v1/tiers', admin, { code: 'silver', limits: [1] })), [400, 40024]);
    assert.deepEqual(await code(call('PUT', '/v1/tiers', admin, { code: 'ghost', name: 'x' })), [400, 40030]);
    assert.deepEqual(await code(call('PUT', '/v1/tiers', admin, { code: 'gold', limits: { emails: 'many' } })), [400, 40000]);
    assert.deepEqual(await code(call('DELETE', '/v1/tiers', admin, { code: 'ghost' })), [400, 40030]);
    assert.deepEqual(await call('GET', '/v1/tiers', admin), [200, [{ code: 'gold', name: 'gold', limits: defaults }]]);
    assert.deepEqual(await call('DELETE', '/v1/tiers', admin, { code: 'gold' }), ok);
  });

  it('refuses non-admins and strangers on every route', async () => {
    for (const auth of [basic('phil'), undefined]) {
      assert.deepEqual(await code(call('GET', '/v1/tiers', auth)), [401, 40101]);
      assert.deepEqual(await code(call('POST', '/v1/tiers', auth, { code: 'x' })), [401, 40101]);
      assert.deepEqual(await code(call('PUT', '/v1/tiers', auth, { code: 'x' })), [401, 40101]);
      assert.deepEqual(await code(call('DELETE', '/v1/tiers', auth, { code: 'x' })), [401, 40101]);
    }
  });
});
