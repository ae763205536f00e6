import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { AllowWrite, AttachmentStore, FileUpload, StoredFile, SweepReport } from '../attachment-store.js';
import type { FileIndex } from '../file-index.js';
import { spooledUpload, type KeepPart } from '../files/part-file.js';
import { UploadTally } from '../upload-tally.js';
import { S3Bucket } from './s3-bucket.js';
import { sweepBucket } from './sweep.js';
import type { S3Location } from './s3-url.js';

export interface SweepTiming {
  /** How often `sweep` lists the bucket: ntfy's sync loop runs every 15 minutes. */
  everyMs: number;
  /** How old an object the index does not know must be to go: ntfy's 1 h grace, far past any upload's commit. */
  orphanAgeMs: number;
}

export const defaultSweep: SweepTiming = { everyMs: 15 * 60 * 1000, orphanAgeMs: 60 * 60 * 1000 };

/**
 * Attachments in an S3 bucket (ntfy 2.20), their metadata and sums in a FileIndex on the
 * deployment's database, so every node sharing the database shares the bucket. An upload
 * is written to a local part file first (synchronously, as the other backends: a fast
 * client waits on TCP, not on a queue), streamed to the bucket on commit (multipart above
 * 5 MB), then indexed: a file is visible only once its object is whole. An object the
 * index never learnt of (a crash between the two) is an orphan, and `sweep` removes it.
 */
export class S3Attachments implements AttachmentStore {
  private readonly tally = new UploadTally();
  /** When `sweep` last listed the bucket (ms); 0 asks for a sweep at the next call. */
  private sweptAt = 0;

  private constructor(
    private readonly bucket: S3Bucket,
    private readonly index: FileIndex,
    /** This node's part files. */
    private readonly spool: string,
    private readonly timing: SweepTiming,
  ) {}

  /** Checks that the bucket answers to the keys before anything else; the index is this store's to close from then on. */
  static async open(location: S3Location, index: FileIndex, timing = defaultSweep): Promise<S3Attachments> {
    const bucket = new S3Bucket(location);
    try {
      await bucket.check();
      return new S3Attachments(bucket, index, await mkdtemp(join(tmpdir(), 'tocsin-uploads-')), timing);
    } catch (err) {
      bucket.close();
      await index.close();
      throw err;
    }
  }

  async create(id: string, owner: string, allow: AllowWrite): Promise<FileUpload> {
    return spooledUpload(this.spool, this.tally, { id, owner }, allow, async () => ({ owner: await this.index.usage(owner), total: await this.index.total() }), this.keep);
  }

  /** Streamed to the bucket, then indexed, which makes it visible. */
  private readonly keep: KeepPart = async (part, file, stored) => {
    const key = this.bucket.keyOf(file.id);
    const body = createReadStream(part);
    // The client may give up before it reads (the store down) and leave the stream to open
    // after the part is removed: its failure then is not the upload's, which `put` reports.
    body.on('error', () => undefined);
    try {
      await this.bucket.put(key, body, file.size, file.type);
    } finally {
      body.destroy();
    }
    try {
      await this.index.add(file);
    } catch (err) {
      await this.bucket.delete([key]).catch(() => undefined); // else an orphan the sweep removes
      throw err;
    }
    stored();
  };

  async stat(id: string): Promise<StoredFile | undefined> {
    return this.index.get(id);
  }

  async read(id: string, range?: { start: number; end: number }): Promise<Readable> {
    return this.bucket.get(this.bucket.keyOf(id), range);
  }

  async remove(id: string): Promise<void> {
    if (await this.index.remove(id)) await this.bucket.delete([this.bucket.keyOf(id)]);
  }

  async expire(now: number): Promise<string[]> {
    const expired = await this.index.expired(now);
    // Unindexed already, so their objects are orphans if the delete fails: the next sweep, brought forward, takes them.
    await this.bucket.delete(expired.map((id) => this.bucket.keyOf(id))).catch(() => {
      this.sweptAt = 0;
    });
    return expired;
  }

  /** Lists the bucket at most every `timing.everyMs`: removes orphans and a crash's multipart uploads, and sums what is stored. */
  async sweep(nowMs: number): Promise<SweepReport | undefined> {
    if (this.sweptAt !== 0 && nowMs - this.sweptAt < this.timing.everyMs) return undefined;
    this.sweptAt = nowMs;
    return sweepBucket(this.bucket, this.index, new Date(nowMs - this.timing.orphanAgeMs));
  }

  async usage(owner: string): Promise<number> {
    return (await this.index.usage(owner)) + this.tally.writing(owner);
  }

  async total(): Promise<number> {
    return (await this.index.total()) + this.tally.writing();
  }

  async close(): Promise<void> {
    this.bucket.close();
    await this.index.close();
    await rm(this.spool, { recursive: true, force: true });
  }
}
