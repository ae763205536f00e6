import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import type { Json } from '../support/clients.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';

/**
 * Whose attachments count: a logged-in user's own (ntfy's AttachmentBytesUsedByUser),
 * an anonymous visitor's by address — all of these come from 127.0.0.1.
 */

const hash = bcrypt.hashSync('pw', 4);
const basic = (user: string): string => `Basic ${Buffer.from(`${user}:pw`).toString('base64')}`;

const dir = tempDir(); // made here: a cleanup registered inside `before` would run as it ends
let s: TestServer;
before(async () => {
  s = await startTestServer({
    'auth-file': join(dir, 'auth.db'),
    'auth-users': [`ben:${hash}:user`, `phil:${hash}:user`],
    'base-url': 'http://files.example',
    'attachment-cache-dir': join(dir, 'files'),
    'visitor-attachment-total-size-limit': 4000,
  });
});
after(() => s.server.close());

async function upload(bytes: number, user?: string): Promise<[number, Json]> {
  const headers: Record<string, string> = { Filename: 'f.bin', ...(user && { Authorization: basic(user) }) };
  const res = await fetch(`${s.url}/files`, { method: 'POST', body: Buffer.alloc(bytes, 1), headers });
  return [res.status, (await res.json()) as Json];
}

async function attachmentStats(user?: string): Promise<[unknown, unknown]> {
  const res = await fetch(`${s.url}/v1/account`, { headers: user ? { Authorization: basic(user) } : {} });
  const stats = ((await res.json()) as Json).stats as Json;
  return [stats.attachment_total_size, stats.attachment_total_size_remaining];
}

describe('account — attachment usage per user', () => {
  it('GET /v1/account reports each user\'s own uploads, and an anonymous visitor\'s apart from them', async () => {
    assert.equal((await upload(1000))[0], 200);
    assert.equal((await upload(3000, 'ben'))[0], 200);
    assert.equal((await upload(500, 'phil'))[0], 200);
    assert.deepEqual(await attachmentStats(), [1000, 3000]);
    assert.deepEqual(await attachmentStats('ben'), [3000, 1000]);
    assert.deepEqual(await attachmentStats('phil'), [500, 3500]);
  });

  it('the upload limit counts the same bytes: a user\'s own, not the address\'s', async () => {
    const [status, error] = await upload(1500, 'ben');
    assert.deepEqual([status, error.code], [413, 41301], 'ben has 1000 of 4000 left');
    const [ok, message] = await upload(3000, 'phil');
    assert.equal(ok, 200, 'the address holds 4500 already, phil only 500');
    assert.deepEqual(await attachmentStats('phil'), [3500, 500]);
    const file = await fetch(((message.attachment as Json).url as string).replace('http://files.example', s.url));
    assert.deepEqual([file.status, (await file.arrayBuffer()).byteLength], [200, 3000], 'a tierless user\'s file downloads');
  });
});
