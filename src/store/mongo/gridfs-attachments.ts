import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { GridFSBucket, ObjectId, type Collection, type Db } from 'mongodb';
import type { AllowWrite, AttachmentStore, FileUpload, StoredFile } from '../attachment-store.js';
import { PartFile, type KeepPart } from '../files/part-file.js';
import { UploadTally } from '../upload-tally.js';
import { ensureIndexes } from './indexes.js';
import { collection, concernsOf } from './concerns.js';

/** What Tocsin keeps of a file beside GridFS's own fields (its id is the file's `_id`, its size `length`). */
interface FileMeta {
  type: string;
  owner: string;
  expires: number;
}

/** A GridFS file document as Tocsin writes it. */
interface TocsinFile {
  _id: string;
  length: number;
  filename: string;
  metadata: FileMeta;
}

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
    private readonly files: Collection<TocsinFile>,
    private readonly chunks: Collection<{ _id: ObjectId; files_id: string; n: number }>,
    /** This node's part files. */
    private readonly spool: string,
  ) {}

  static async open(db: Db): Promise<GridFsAttachments> {
    const bucket = new GridFSBucket(db, { bucketName: 'attachments', writeConcern: concernsOf(db).writeConcern });
    const files = collection<TocsinFile>(db, 'attachments.files');
    await ensureIndexes(files, [{ key: { 'metadata.owner': 1 } }, { key: { 'metadata.expires': 1 } }]);
    const spool = await mkdtemp(join(tmpdir(), 'tocsin-uploads-'));
    return new GridFsAttachments(bucket, files, collection(db, 'attachments.chunks'), spool);
  }

  async create(id: string, owner: string, allow: AllowWrite): Promise<FileUpload> {
    const counted = await this.tally.begin(owner, async () => ({ owner: await this.committed(owner), total: await this.committed() }));
    try {
      return new PartFile(join(this.spool, `${id}.${new ObjectId().toHexString()}.part`), { id, owner }, allow, counted, this.keep);
    } catch (err) {
      counted.end(false);
      throw err;
    }
  }

  /** Streamed into GridFS; its file document, written last, makes it visible. */
  private readonly keep: KeepPart = async (part, file, stored) => {
    const metadata: FileMeta = { type: file.type, owner: file.owner, expires: file.expires };
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
    const file = await this.files.findOne({ _id: id });
    if (!file) return undefined;
    return { id, size: file.length, type: file.metadata.type, name: file.filename, owner: file.metadata.owner, expires: file.metadata.expires };
  }

  read(id: string, range?: { start: number; end: number }): Readable {
    return this.bucket.openDownloadStream(gridId(id), range && { start: range.start, end: range.end + 1 });
  }

  async remove(id: string): Promise<void> {
    await this.bucket.delete(gridId(id)).catch((err: unknown) => {
      if (!isFileNotFound(err)) throw err;
    });
  }

  async expire(now: number): Promise<string[]> {
    const expired = await this.files.find({ 'metadata.expires': { $gt: 0, $lte: now } }, { projection: { _id: 1 } }).toArray();
    for (const { _id } of expired) await this.remove(_id);
    await this.removeOrphans();
    return expired.map((f) => f._id);
  }

  /** Chunks of uploads that died before their file document, old enough that no live upload owns them. */
  private async removeOrphans(): Promise<void> {
    const before = ObjectId.createFromTime(Math.floor((Date.now() - orphanAgeMs) / 1000));
    const firsts = await this.chunks.find({ n: 0, _id: { $lt: before } }, { projection: { files_id: 1 } }).toArray();
    for (const { files_id: id } of firsts) {
      if (!(await this.files.findOne({ _id: id }, { projection: { _id: 1 } }))) await this.chunks.deleteMany({ files_id: id });
    }
  }

  async usage(owner: string): Promise<number> {
    return (await this.committed(owner)) + this.tally.writing(owner);
  }

  async total(): Promise<number> {
    return (await this.committed()) + this.tally.writing();
  }

  /** Bytes of the committed files of `owner`, or of all. */
  private async committed(owner?: string): Promise<number> {
    const match = owner === undefined ? {} : { 'metadata.owner': owner };
    const [sum] = await this.files.aggregate<{ bytes: number }>([{ $match: match }, { $group: { _id: null, bytes: { $sum: '$length' } } }]).toArray();
    return sum?.bytes ?? 0;
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
