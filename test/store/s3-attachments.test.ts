import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import { buffer } from 'node:stream/consumers';
import { after, before, describe, it } from 'node:test';
import { CreateMultipartUploadCommand, ListMultipartUploadsCommand, ListObjectsV2Command, PutObjectCommand } from '@aws-sdk/client-s3';
import { MongoClient } from 'mongodb';
import type pg from 'pg';
import { sharedHousekeeping } from '../../src/housekeeping/shared.js';
import { TopicRetention } from '../../src/model/topic-retention.js';
import { AttachmentsUnavailableError } from '../../src/store/attachment-store.js';
import type { FileIndex } from '../../src/store/file-index.js';
import { AttachmentIndex } from '../../src/store/files/attachment-index.js';
import { MongoFileIndex } from '../../src/store/mongo/attachment-index.js';
import { PostgresFileIndex } from '../../src/store/postgres/attachment-index.js';
import { openPool } from '../../src/store/postgres/pool.js';
import { openSchema } from '../../src/store/postgres/schema.js';
import { S3Attachments, type SweepTiming } from '../../src/store/s3/s3-attachments.js';
import { openSqliteStore } from '../../src/store/sqlite/store.js';
import { parseS3Url } from '../../src/store/s3/s3-url.js';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { LogCapture } from '../support/log.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { seaweedFsSkip, startSeaweedFs, type SeaweedFs } from '../support/seaweedfs.js';
import { tempDir } from '../support/server.js';
import { describeAttachmentStore } from './contracts/attachment-store.contract.js';

const skip = seaweedFsSkip();
let weed: SeaweedFs;
before(async () => {
  if (!skip) weed = await startSeaweedFs();
});
after(() => weed?.stop());

const meta = { type: 'application/octet-stream', name: 'f.bin', expires: 2000 };
/** Sweeps at every call, and takes any object the index does not know, however new. */
const eager: SweepTiming = { everyMs: 0, orphanAgeMs: 0 };

/** The keys in `bucket`, sorted. */
async function keys(bucket: string): Promise<string[]> {
  const page = await weed.client.send(new ListObjectsV2Command({ Bucket: bucket }));
  return (page.Contents ?? []).map((o) => o.Key ?? '').sort();
}

/** A store on a fresh bucket (under `prefix`) with an SQLite index of its own. */
async function fresh(prefix = 'pre/fix', timing?: SweepTiming): Promise<{ store: S3Attachments; bucket: string; index: AttachmentIndex }> {
  const bucket = await weed.bucket('s3');
  const index = new AttachmentIndex(join(tempDir(), 'index.db'));
  const store = await S3Attachments.open(parseS3Url(weed.url(bucket, prefix)), index, timing);
  after(() => store.close());
  return { store, bucket, index };
}

describe('S3 attachments (on SeaweedFS)', { skip }, () => {
  describeAttachmentStore('s3 + sqlite index', async (location) => {
    const { bucket, file } = location ? (JSON.parse(location) as { bucket: string; file: string }) : { bucket: await weed.bucket('sqlite'), file: join(tempDir(), 'index.db') };
    const instance = await S3Attachments.open(parseS3Url(weed.url(bucket, 'pre/fix')), new AttachmentIndex(file));
    return { instance, location: JSON.stringify({ bucket, file }), close: () => instance.close() };
  });

  describe('with a PostgreSQL index', { skip: postgresSkip() }, () => {
    const pools: pg.Pool[] = [];
    after(() => Promise.all(pools.map((p) => p.end())));
    describeAttachmentStore('s3 + postgresql index', async (location) => {
      const { bucket, url } = location ? (JSON.parse(location) as { bucket: string; url: string }) : { bucket: await weed.bucket('pg'), url: await freshDatabase('s3') };
      const pool = openPool(url);
      pools.push(pool);
      await openSchema(pool);
      const instance = await S3Attachments.open(parseS3Url(weed.url(bucket)), new PostgresFileIndex(pool));
      return { instance, location: JSON.stringify({ bucket, url }), close: () => instance.close() };
    });
  });

  describe('with a MongoDB index (FerretDB)', { skip: ferretDbSkip() }, () => {
    let ferret: FerretDb | undefined;
    const clients: MongoClient[] = [];
    after(async () => {
      await Promise.all(clients.map((c) => c.close()));
      await ferret?.stop();
    });
    describeAttachmentStore('s3 + mongodb index', async (location) => {
      ferret ??= await startFerretDb();
      const { bucket, db } = location ? (JSON.parse(location) as { bucket: string; db: string }) : { bucket: await weed.bucket('mongo'), db: ferret.databaseName('s3') };
      const client = await MongoClient.connect(ferret.url);
      clients.push(client);
      const instance = await S3Attachments.open(parseS3Url(weed.url(bucket)), await MongoFileIndex.open(client.db(db), 's3_attachments'));
      return { instance, location: JSON.stringify({ bucket, db }), close: () => instance.close() };
    });
  });

  it('s3 — a file above 5 MB goes up in parts under the prefix and reads back whole and by ranges', async () => {
    // given: 12 MB written in uneven chunks
    const { store, bucket } = await fresh();
    const bytes = randomBytes(12 * 1024 * 1024 + 17);
    const upload = await store.create('big1', 'o', () => true);
    for (let at = 0; at < bytes.length; at += 1_000_003) upload.write(bytes.subarray(at, at + 1_000_003));

    // when: committed
    await upload.commit(meta);

    // then: one object under the prefix, whole and by ranges across the part boundaries
    assert.deepEqual(await keys(bucket), ['pre/fix/big1']);
    assert.equal((await store.stat('big1'))?.size, bytes.length);
    assert.deepEqual(await buffer(await store.read('big1')), bytes);
    const part = 5 * 1024 * 1024;
    for (const [start, end] of [[0, 0], [part - 1, part], [part * 2 - 3, bytes.length - 1]] as const) {
      assert.deepEqual(await buffer(await store.read('big1', { start, end })), bytes.subarray(start, end + 1), `${start}-${end}`);
    }
  });

  it('s3 — expire deletes more objects than one request takes, and the prefix keeps the bucket\'s other keys apart', async () => {
    // given: 1,005 expired files indexed with their objects, one live file, and a key of someone else
    const { store, bucket, index } = await fresh('tocsin');
    const ids = Array.from({ length: 1005 }, (_, n) => `exp${n}`);
    for (const id of ids) {
      await weed.client.send(new PutObjectCommand({ Bucket: bucket, Key: `tocsin/${id}`, Body: 'x' }));
      index.add({ id, owner: 'o', size: 1, ...meta, expires: 1000 });
    }
    await (await store.create('live1', 'o', () => true)).commit(meta);
    await weed.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'other/exp1', Body: 'theirs' }));

    // when: they expire
    const expired = await store.expire(1500);

    // then: every expired id answered and its object gone; the live file and the other key stay
    assert.deepEqual(expired.sort(), [...ids].sort());
    assert.deepEqual(await keys(bucket), ['other/exp1', 'tocsin/live1']);
    assert.deepEqual([await store.usage('o'), await store.total()], [0, 0]);
  });

  it('s3 sweep — orphans and a crash\'s multipart uploads go; indexed files, young orphans and other keys stay', async () => {
    // given: an indexed file, an object the index does not know, a key that is no attachment id, and a multipart upload left open
    const { store, bucket } = await fresh('p', eager);
    const upload = await store.create('knownfile001', 'o', () => true);
    upload.write(Buffer.from('12345'));
    await upload.commit(meta);
    await weed.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'p/orphanfile01', Body: 'lost' }));
    await weed.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'p/not-an.id', Body: 'keep' }));
    await weed.client.send(new CreateMultipartUploadCommand({ Bucket: bucket, Key: 'p/crashed1' }));

    // when: swept with no grace
    const report = await store.sweep(Date.now() + 1000);

    // then: the orphan and the upload are gone, the report sums the indexed file
    assert.deepEqual(report, { objects: 1, bytes: 5, orphans: 1, abortedUploads: 1 });
    assert.deepEqual(await keys(bucket), ['p/knownfile001', 'p/not-an.id']);
    assert.equal((await weed.client.send(new ListMultipartUploadsCommand({ Bucket: bucket }))).Uploads?.length ?? 0, 0);
  });

  it('s3 sweep — runs at most once per interval, and an orphan younger than the grace stays', async () => {
    // given: a store sweeping every 15 minutes with ntfy's 1 h grace, and a fresh orphan
    const { store, bucket } = await fresh('p', { everyMs: 15 * 60_000, orphanAgeMs: 60 * 60_000 });
    await weed.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'p/youngfile001', Body: 'new' }));
    const now = Date.now();

    // when: swept now, a minute later, and past the interval
    const first = await store.sweep(now);
    const again = await store.sweep(now + 60_000);
    const later = await store.sweep(now + 16 * 60_000);

    // then: the second call did not list; the young orphan survives both sweeps
    assert.deepEqual([first?.orphans, again, later?.orphans], [0, undefined, 0]);
    assert.deepEqual(await keys(bucket), ['p/youngfile001']);
  });

  it('shared housekeeping — sweeps the bucket through the store and logs what it found', async () => {
    // given: an indexed file and an orphan, on a store that sweeps at every call
    const { store, bucket } = await fresh('hk', eager);
    await (await store.create('knownfile002', 'o', () => true)).commit({ ...meta, expires: Math.floor(Date.now() / 1000) + 3600 });
    await weed.client.send(new PutObjectCommand({ Bucket: bucket, Key: 'hk/orphanfile02', Body: 'lost' }));
    const log = new LogCapture();
    const { cache, close } = openSqliteStore('');
    after(close);

    // when: the shared housekeeping runs
    await sharedHousekeeping({ log: log.logger, cache, access: undefined, attachments: store, webPush: undefined, config: { topicRetention: new TopicRetention([], 0) } });

    // then: the orphan is gone and the sweep logged
    assert.deepEqual(await keys(bucket), ['hk/knownfile002']);
    assert.deepEqual(log.find((r) => r.msg === 'attachment storage swept').map((r) => r.swept), [{ objects: 1, bytes: 0, orphans: 1, abortedUploads: 0 }]);
  });

  it('s3 — wrong keys stop the opening, naming the refusal', async () => {
    const bucket = await weed.bucket('keys');
    const wrong = parseS3Url(weed.url(bucket).replace(encodeURIComponent(weed.secretKey), 'wrongsecret'));
    const index: FileIndex = new AttachmentIndex('');
    await assert.rejects(S3Attachments.open(wrong, index), (err: Error) => {
      assert.ok(err instanceof AttachmentsUnavailableError);
      assert.equal(err.message, 'attachment storage unavailable: HTTP 403');
      return true;
    });
  });

  it('s3 — with the storage down, commits and reads fail as unavailable and leave nothing counted', async () => {
    // given: a file stored, then the S3 server gone
    const own = await startSeaweedFs();
    after(() => own.stop());
    const bucket = await own.bucket('down');
    const index = new AttachmentIndex('');
    const store = await S3Attachments.open(parseS3Url(own.url(bucket)), index);
    after(() => store.close());
    const first = await store.create('stored1', 'o', () => true);
    first.write(Buffer.from('abc'));
    await first.commit(meta);
    await own.stop();

    // when/then: a read and a commit are refused as unavailable
    await assert.rejects(store.read('stored1'), AttachmentsUnavailableError);
    const second = await store.create('lost1', 'o', () => true);
    second.write(Buffer.from('defg'));
    await assert.rejects(second.commit(meta), AttachmentsUnavailableError);
    assert.deepEqual([await store.stat('lost1'), await store.usage('o'), await store.total()], [undefined, 3, 3]);
  });
});
