import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { GetObjectCommand, ListObjectsV2Command } from '@aws-sdk/client-s3';
import { postChunked, publish, type Json } from '../support/clients.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { seaweedFsSkip, startSeaweedFs, type SeaweedFs } from '../support/seaweedfs.js';
import { serveUntilExit, spawnServer, startTestServer, tempDir, type TestServer } from '../support/server.js';
import { until } from '../support/wait.js';

/** Uploads with attachment-cache-dir an s3:// URL (ntfy 2.20), against a real SeaweedFS. */

const skip = seaweedFsSkip();
let weed: SeaweedFs;
before(async () => {
  if (!skip) weed = await startSeaweedFs();
});
after(() => weed?.stop());

/** A server whose attachments go to a fresh bucket under prefix `tocsin`; closed when the test file ends. */
async function server(settings: Record<string, unknown> = {}, s3 = weed): Promise<TestServer & { bucket: string }> {
  const bucket = await s3.bucket('server');
  const s = await startTestServer({ 'base-url': 'http://files.example', 'attachment-cache-dir': s3.url(bucket, 'tocsin'), ...settings });
  after(() => s.server.close());
  return { ...s, bucket };
}

async function keys(bucket: string): Promise<string[]> {
  return ((await weed.client.send(new ListObjectsV2Command({ Bucket: bucket }))).Contents ?? []).map((o) => o.Key ?? '').sort();
}

const pathOf = (attachment: unknown): string => new URL((attachment as { url: string }).url).pathname;

describe('attachments in S3', { skip, timeout: 120_000 }, () => {
  it('an upload lands in the bucket under the prefix, and downloads through the server whole, by HEAD and by range', async () => {
    // given: a file put on a topic
    const s = await server();
    const sent = await publish(`${s.url}/papers`, '0123456789', { Filename: 'digits.txt' }, 'PUT');
    assert.equal(sent.status, 200);
    const id = sent.json.id as string;
    assert.deepEqual(sent.json.attachment, { name: 'digits.txt', type: 'text/plain; charset=utf-8', size: 10, expires: (sent.json.attachment as Json).expires, url: `http://files.example/file/${id}.txt` });

    // then: one object under the prefix, with the bytes
    assert.deepEqual(await keys(s.bucket), [`tocsin/${id}`]);
    const object = await weed.client.send(new GetObjectCommand({ Bucket: s.bucket, Key: `tocsin/${id}` }));
    assert.equal(await object.Body?.transformToString(), '0123456789');

    // and: the public URL streams it with its length and name; HEAD and ranges as the local store
    const url = `${s.url}${pathOf(sent.json.attachment)}`;
    const whole = await fetch(url);
    assert.deepEqual(
      [whole.status, whole.headers.get('content-length'), whole.headers.get('content-type'), whole.headers.get('content-disposition'), await whole.text()],
      [200, '10', 'text/plain; charset=utf-8', 'attachment; filename="digits.txt"', '0123456789'],
    );
    const head = await fetch(url, { method: 'HEAD' });
    assert.deepEqual([head.status, head.headers.get('content-length'), await head.text()], [200, '10', '']);
    const part = await fetch(url, { headers: { Range: 'bytes=2-5' } });
    assert.deepEqual([part.status, part.headers.get('content-range'), part.headers.get('content-length'), await part.text()], [206, 'bytes 2-5/10', '4', '2345']);
    const tail = await fetch(url, { headers: { Range: 'bytes=-3' } });
    assert.deepEqual([tail.status, await tail.text()], [206, '789']);
    assert.equal((await fetch(url, { headers: { Range: 'bytes=20-30' } })).status, 416);
    assert.equal((await fetch(`${s.url}/file/nosuchfile12.txt`)).status, 404);
  });

  it('a 7 MB body streamed without Content-Length goes up in parts and comes back whole', async () => {
    const s = await server({ 'attachment-file-size-limit': '10M', 'visitor-attachment-total-size-limit': '20M' });
    const body = Buffer.from(Array.from({ length: 7 * 1024 * 1024 }, (_, i) => (i * 7919) % 251));
    const [status, json] = await postChunked(`${s.url}/big`, body);
    assert.deepEqual([status, (json.attachment as Json).size], [200, body.length]);
    const back = await fetch(`${s.url}${pathOf(json.attachment)}`);
    assert.equal(back.headers.get('content-length'), String(body.length));
    assert.ok(Buffer.from(await back.arrayBuffer()).equals(body), 'the same bytes');
  });

  it('the size limits and their codes are as with a directory, and a refused upload leaves no object', async () => {
    // given: 1 KB files, 1.5 KB per visitor, 2.5 KB on the server
    const s = await server({ 'attachment-file-size-limit': '1k', 'visitor-attachment-total-size-limit': '1500', 'attachment-total-size-limit': '2500', 'behind-proxy': true });
    const from = (address: string): Record<string, string> => ({ 'X-Forwarded-For': address });

    // then: too big for a file, announced or streamed: 41301, no object
    const announced = await publish(`${s.url}/lim`, Buffer.alloc(1500, 0xff));
    assert.deepEqual([announced.status, announced.json.code], [413, 41301]);
    const [streamed, streamedJson] = await postChunked(`${s.url}/lim`, Buffer.alloc(1500, 0xff));
    assert.deepEqual([streamed, streamedJson.code], [413, 41301]);
    assert.deepEqual(await keys(s.bucket), []);

    // and: the visitor's total, then the server's
    assert.equal((await publish(`${s.url}/lim`, Buffer.alloc(1000, 0xff), from('198.51.100.6'))).status, 200);
    assert.equal((await publish(`${s.url}/lim`, Buffer.alloc(1000, 0xff), from('198.51.100.6'))).json.code, 41301, 'past the visitor total');
    assert.equal((await publish(`${s.url}/lim`, Buffer.alloc(1000, 0xff), from('198.51.100.7'))).status, 200, 'another visitor');
    const full = await publish(`${s.url}/lim`, Buffer.alloc(1000, 0xff), from('198.51.100.8'));
    assert.deepEqual([full.status, full.json.code], [413, 41301], 'past the server total');
    assert.equal((await keys(s.bucket)).length, 2);
  });

  it('housekeeping deletes expired attachments from the bucket, freeing the visitor\'s share', async () => {
    const s = await server({ 'attachment-expiry-duration': '1s', 'manager-interval': '1s', 'visitor-attachment-total-size-limit': '1500' });
    const { json } = await publish(`${s.url}/exp`, Buffer.alloc(1000, 0xff));
    assert.equal((await publish(`${s.url}/exp`, Buffer.alloc(1000, 0xff))).status, 413);
    await until(async () => (await keys(s.bucket)).length === 0, 'the object deleted', { everyMs: 100 });
    assert.equal((await fetch(`${s.url}${pathOf(json.attachment)}`)).status, 404);
    assert.equal((await publish(`${s.url}/exp`, Buffer.alloc(1000, 0xff))).status, 200, 'the share is free again');
  });

  it('the index beside the cache file keeps the files known across a restart', async () => {
    const bucket = await weed.bucket('restart');
    const settings = { 'base-url': 'http://files.example', 'attachment-cache-dir': weed.url(bucket), 'cache-file': join(tempDir(), 'cache.db') };
    const first = await startTestServer(settings);
    const { json } = await publish(`${first.url}/kept`, 'kept bytes', { Filename: 'k.txt' });
    await first.server.close();
    const again = await startTestServer(settings);
    after(() => again.server.close());
    const back = await fetch(`${again.url}${pathOf(json.attachment)}`);
    assert.deepEqual([back.status, await back.text()], [200, 'kept bytes']);
  });

  it('with the S3 server down, uploads and downloads answer 503 (50303) and the server goes on', async () => {
    // given: a server on a SeaweedFS of its own, with one file stored, then that SeaweedFS gone
    const own = await startSeaweedFs();
    after(() => own.stop());
    const s = await server({}, own);
    const stored = await publish(`${s.url}/down`, 'stored before', { Filename: 'a.txt' });
    await own.stop();

    // when: a download and an upload
    const download = await fetch(`${s.url}${pathOf(stored.json.attachment)}`);
    const upload = await publish(`${s.url}/down`, 'after', { Filename: 'b.txt' });

    // then: ntfy's error shape with Tocsin's code; plain messages and the API still work
    const error = { code: 50303, http: 503, error: 'service unavailable: the attachment storage cannot be reached, try again later' };
    assert.deepEqual([download.status, await download.json()], [503, error]);
    assert.deepEqual([upload.status, upload.json], [503, error]);
    assert.equal((await publish(`${s.url}/down`, 'a plain message')).status, 200);
    assert.equal((await fetch(`${s.url}/v1/health`)).status, 200);
  });
});

describe('startup — attachment-cache-dir as s3://', { skip }, () => {
  it('a malformed URL stops the start, naming what is wrong and not the keys', async () => {
    const { code, stderr } = await serveUntilExit(['--base-url', 'http://files.example', '--attachment-cache-dir', 's3://AKIA:topsecret@bucket-name/x']);
    assert.equal(code, 1);
    assert.equal(stderr, 'tocsin: attachment-cache-dir: the s3:// URL needs region=REGION\n');
  });

  it('a bucket that does not exist stops the start, naming the bucket and the endpoint', async () => {
    const url = weed.url('no-such-bucket');
    const { code, stderr } = await serveUntilExit(['--base-url', 'http://files.example', '--attachment-cache-dir', url]);
    assert.equal(code, 1);
    assert.match(stderr, new RegExp(`^tocsin: attachment-cache-dir: the bucket no-such-bucket at ${weed.endpoint} cannot be used: attachment storage unavailable: `));
    assert.ok(!stderr.includes(weed.secretKey) && !stderr.includes(encodeURIComponent(weed.secretKey)), 'no secret key');
  });
});

let ferret: Promise<FerretDb> | undefined;
after(async () => (await ferret)?.stop());

/** The database-url of a fresh database on each cluster backend, and why it cannot run here. */
const backends: [string, (label: string) => Promise<string>, string | false][] = [
  ['PostgreSQL', freshDatabase, postgresSkip()],
  [
    'MongoDB (FerretDB)',
    async (label) => {
      const server = await (ferret ??= startFerretDb());
      return server.url.replace('/?', `/${server.databaseName(label)}?`);
    },
    ferretDbSkip(),
  ],
];

for (const [name, fresh, backendSkip] of backends) {
  describe(`two nodes on one ${name} database share the bucket`, { skip: skip || backendSkip, timeout: 120_000 }, () => {
    it('a file uploaded on one node downloads on the other and counts in its limits', async () => {
      // given: two nodes on one database and one bucket
      const [database, bucket] = [await fresh('s3'), await weed.bucket('cluster')];
      const args = ['--database-url', database, '--base-url', 'http://tocsin.test', '--attachment-cache-dir', weed.url(bucket, 'shared'), '--visitor-attachment-total-size-limit', '15'];
      const nodes = [await spawnServer(args), await spawnServer(args)];
      after(() => nodes.forEach((n) => n.child.kill()));
      const [n1, n2] = nodes as [(typeof nodes)[0], (typeof nodes)[0]];

      // when: uploaded on node 1
      const sent = await publish(`${n1.url}/files`, '0123456789', { Filename: 'digits.txt' }, 'PUT');
      assert.equal(sent.status, 200);

      // then: node 2 streams it whole and by range, and counts it against the visitor
      const path = pathOf(sent.json.attachment);
      const whole = await fetch(`${n2.url}${path}`);
      assert.deepEqual([whole.status, whole.headers.get('content-length'), await whole.text()], [200, '10', '0123456789']);
      const part = await fetch(`${n2.url}${path}`, { headers: { Range: 'bytes=2-5' } });
      assert.deepEqual([part.status, await part.text()], [206, '2345']);
      const over = await publish(`${n2.url}/files`, 'abcdefgh', { Filename: 'more.txt' }, 'PUT');
      assert.deepEqual([over.status, over.json.code], [413, 41301], 'the 10 bytes stored through node 1 count on node 2');
      assert.deepEqual(await keys(bucket), [`shared/${sent.json.id as string}`]);
    });
  });
}
