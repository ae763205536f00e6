import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GridFSBucket, ObjectId, type Collection, type Db } from 'mongodb';
import type { AllowWrite, AttachmentStore, FileUpload, StoredFile } from '../attachment-store.js';
import { spooledUpload, type KeepPart } from '../files/part-file.js';
import { UploadTally } from '../upload-tally.js';
import { MongoFileIndex } from './attachment-index.js';
import { collection, concernsOf } from './concerns.js';

/** Chunks older than this without their file document are a crashed upload's (see `expire`). */
export const orphanAgeMs = 60 * 60 * 1000;

/**
 * Attachments in GridFS, shared by every node on the database: bucket `attachments`, a
 * file's `_id` its attachment id, its type, owner and expiry in `metadata`. An upload is
 * written to a local part file first (synchronously, as the files backend: a fast client
 * waits on TCP, not on a queue), and streamed into GridFS on commit. GridFS writes the
 * file document after the last chunk, so a file is visible only once whole; chunks a
 * crash left without their file document are removed by `expire` once an hour old.
 * Usage per owner and in all are sums over the file documents (indexed by owner).
 */
export class GridFsAttachments implements AttachmentStore {
  private readonly tally = new UploadTally();

  private constructor(
    private readonly bucket: GridFSBucket,
    private readonly index: MongoFileIndex,
    private readonly chunks: Collection<{ _id: ObjectId; files_id: string; n: number }>,
    /** This node's part files. */
    private readonly spool: string,
  ) {}

  static async open(db: Db): Promise<GridFsAttachments> {
    const bucket = new GridFSBucket(db, { bucketName: 'attachments', writeConcern: concernsOf(db).writeConcern });
    const index = await MongoFileIndex.open(db, 'attachments.files');
    const spool = await mkdtemp(join(tmpdir(), 'tocsin-uploads-'));
    return new GridFsAttachments(bucket, index, collection(db, 'attachments.chunks'), spool);
  }

  async create(id: string, owner: string, allow: AllowWrite): Promise<FileUpload> {
    return spooledUpload(this.spool, this.tally, { id, owner }, allow, async () => ({ owner: await this.index.usage(owner), total: await this.index.total() }), this.keep);
  }

  /** Streamed into GridFS; its file document, written last, makes it visible. */
  private readonly keep: KeepPart = async (part, file, stored) => {
    const metadata = { type: file.type, owner: file.owner, expires: file.expires };
    const upload = this.bucket.openUploadStreamWithId(gridId(file.id), file.name, { metadata });
    try {
      await pipeline(createReadStream(part), upload);
    } catch (err) {
      await this.bucket.delete(gridId(file.id)).catch(() => undefined); // chunks written before the failure
      throw err;
    }
    stored();
  };

  async stat(id: string): Promise<StoredFile | undefined> {
    return this.index.get(id);
  }

  async read(id: string, range?: { start: number; end: number }): Promise<Readable> {
    return this.bucket.openDownloadStream(gridId(id), range && { start: range.start, end: range.end + 1 });
  }

  async remove(id: string): Promise<void> {
    await this.bucket.delete(gridId(id)).catch((err: unknown) => {
      if (!isFileNotFound(err)) throw err;
    });
  }

  async expire(now: number): Promise<string[]> {
    const expired = await this.index.expiring(now);
    for (const id of expired) await this.remove(id);
    await this.removeOrphans();
    return expired;
  }

  /** Chunks of uploads that died before their file document, old enough that no live upload owns them. */
  private async removeOrphans(): Promise<void> {
    const before = ObjectId.createFromTime(Math.floor((Date.now() - orphanAgeMs) / 1000));
    const firsts = await this.chunks.find({ n: 0, _id: { $lt: before } }, { projection: { files_id: 1 } }).toArray();
    for (const { files_id: id } of firsts) {
      if ((await this.index.known([id])).size === 0) await this.chunks.deleteMany({ files_id: id });
    }
  }

  async usage(owner: string): Promise<number> {
    return (await this.index.usage(owner)) + this.tally.writing(owner);
  }

  async total(): Promise<number> {
    return (await this.index.total()) + this.tally.writing();
  }

  async close(): Promise<void> {
    await rm(this.spool, { recursive: true, force: true });
  }
}

/** GridFS takes any `_id`; the driver's types ask for an ObjectId. Attachment ids are strings. */
function gridId(id: string): ObjectId {
  return id as unknown as ObjectId;
}

function isFileNotFound(err: unknown): boolean {
  return err instanceof Error && err.name === 'MongoRuntimeError' && /File not found/i.test(err.message);
}
