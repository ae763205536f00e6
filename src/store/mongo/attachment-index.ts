import type { Collection, Db } from 'mongodb';
import type { StoredFile } from '../attachment-store.js';
import type { FileIndex } from '../file-index.js';
import { collection } from './concerns.js';
import { ensureIndexes } from './indexes.js';

/** What Tocsin keeps of a file beside GridFS's own fields (its id is the file's `_id`, its size `length`). */
interface FileMeta {
  type: string;
  owner: string;
  expires: number;
}

/** A file document as GridFS's `files` collection holds it (and as Tocsin writes it for files elsewhere). */
export interface FileDocument {
  _id: string;
  length: number;
  filename: string;
  metadata: FileMeta;
}

/**
 * File documents in GridFS's shape: GridFS writes them itself in `attachments.files`
 * (GridFsAttachments reads them through this), and for files whose bytes are in an S3
 * bucket this writes them in `attachments_s3`. Usage per owner and in all are sums over
 * the documents (indexed by owner).
 */
export class MongoFileIndex implements FileIndex {
  private constructor(readonly files: Collection<FileDocument>) {}

  static async open(db: Db, name: string): Promise<MongoFileIndex> {
    const files = collection<FileDocument>(db, name);
    await ensureIndexes(files, [{ key: { 'metadata.owner': 1 } }, { key: { 'metadata.expires': 1 } }]);
    return new MongoFileIndex(files);
  }

  async add(file: StoredFile): Promise<void> {
    await this.files.insertOne({ _id: file.id, length: file.size, filename: file.name, metadata: { type: file.type, owner: file.owner, expires: file.expires } });
  }

  async get(id: string): Promise<StoredFile | undefined> {
    const file = await this.files.findOne({ _id: id });
    if (!file) return undefined;
    return { id, size: file.length, type: file.metadata.type, name: file.filename, owner: file.metadata.owner, expires: file.metadata.expires };
  }

  async remove(id: string): Promise<boolean> {
    return (await this.files.deleteOne({ _id: id })).deletedCount > 0;
  }

  /** The ids expired at `now`, without removing them (GridFS removes a file with its chunks). */
  async expiring(now: number): Promise<string[]> {
    return (await this.files.find({ 'metadata.expires': { $gt: 0, $lte: now } }, { projection: { _id: 1 } }).toArray()).map((f) => f._id);
  }

  async expired(now: number): Promise<string[]> {
    const ids = await this.expiring(now);
    if (ids.length > 0) await this.files.deleteMany({ _id: { $in: ids } });
    return ids;
  }

  async usage(owner: string): Promise<number> {
    return this.sum({ 'metadata.owner': owner });
  }

  async total(): Promise<number> {
    return this.sum({});
  }

  async known(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    return new Set((await this.files.find({ _id: { $in: [...ids] } }, { projection: { _id: 1 } }).toArray()).map((f) => f._id));
  }

  close(): void {}

  private async sum(match: object): Promise<number> {
    const [sum] = await this.files.aggregate<{ bytes: number }>([{ $match: match }, { $group: { _id: null, bytes: { $sum: '$length' } } }]).toArray();
    return sum?.bytes ?? 0;
  }
}
