import { createReadStream } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type pg from 'pg';
import type { AllowWrite, AttachmentStore, FileUpload, StoredFile } from '../attachment-store.js';
import { spooledUpload, type KeepPart } from '../files/part-file.js';
import { UploadTally } from '../upload-tally.js';
import { PostgresFileIndex } from './attachment-index.js';
import { inTransaction } from './pool.js';

/** The attachments' tables (made by schema.ts): a file's row, and its bytes in chunks that go with it. */
export const attachmentsSchema = `
  CREATE TABLE attachment_files (
    id text PRIMARY KEY,
    size bigint NOT NULL,
    type text NOT NULL,
    name text NOT NULL,
    owner text NOT NULL,
    expires bigint NOT NULL
  );
  CREATE INDEX attachment_files_owner ON attachment_files (owner);
  CREATE INDEX attachment_files_expires ON attachment_files (expires) WHERE expires > 0;
  CREATE TABLE attachment_chunks (
    file_id text NOT NULL REFERENCES attachment_files (id) ON DELETE CASCADE,
    n int NOT NULL,
    data bytea NOT NULL,
    PRIMARY KEY (file_id, n)
  );
`;

/** Bytes per chunk row: GridFS's size, well under a row's 1 GB, read a chunk per query. */
const chunkBytes = 255 * 1024;

/**
 * Attachments in PostgreSQL, shared by every node on the database: a file's row (its id,
 * size, type, name, owner, expiry) and its bytes in rows of `chunkBytes`. An upload is
 * written to a local part file first (synchronously, as the files backend: a fast client
 * waits on TCP, not on a queue), and copied into the tables on commit in one transaction,
 * so a file is visible only once whole and a crash mid-copy leaves nothing. Usage per
 * owner and in all are sums over the file rows (indexed by owner).
 */
export class PostgresAttachments implements AttachmentStore {
  private readonly tally = new UploadTally();
  private readonly index: PostgresFileIndex;

  private constructor(
    private readonly pool: pg.Pool,
    /** This node's part files. */
    private readonly spool: string,
  ) {
    this.index = new PostgresFileIndex(pool);
  }

  /** On the pool of a store whose schema is open (schema.ts); the pool is the store's to close. */
  static async open(pool: pg.Pool): Promise<PostgresAttachments> {
    return new PostgresAttachments(pool, await mkdtemp(join(tmpdir(), 'tocsin-uploads-')));
  }

  async create(id: string, owner: string, allow: AllowWrite): Promise<FileUpload> {
    return spooledUpload(this.spool, this.tally, { id, owner }, allow, async () => ({ owner: await this.index.usage(owner), total: await this.index.total() }), this.keep);
  }

  /** Copied into the tables in one transaction, which makes it visible whole. */
  private readonly keep: KeepPart = async (part, file, stored) => {
    await inTransaction(this.pool, async (client) => {
      await this.index.add(file, client);
      let n = 0;
      for await (const chunk of createReadStream(part, { highWaterMark: chunkBytes })) {
        await client.query('INSERT INTO attachment_chunks (file_id, n, data) VALUES ($1, $2, $3)', [file.id, n++, chunk]);
      }
    });
    stored();
  };

  async stat(id: string): Promise<StoredFile | undefined> {
    return this.index.get(id);
  }

  async read(id: string, range?: { start: number; end: number }): Promise<Readable> {
    return Readable.from(this.bytes(id, range));
  }

  /** The file's bytes from `start` to `end` inclusive (all of it without a range), a chunk row at a time. */
  private async *bytes(id: string, range?: { start: number; end: number }): AsyncGenerator<Buffer> {
    const start = range?.start ?? 0;
    const end = range?.end ?? ((await this.stat(id))?.size ?? 0) - 1;
    for (let n = Math.floor(start / chunkBytes); n * chunkBytes <= end; n++) {
      const row = (await this.pool.query<{ data: Buffer }>('SELECT data FROM attachment_chunks WHERE file_id = $1 AND n = $2', [id, n])).rows[0];
      if (!row) return;
      const offset = n * chunkBytes;
      yield row.data.subarray(Math.max(0, start - offset), Math.min(row.data.length, end - offset + 1));
    }
  }

  /** Its chunk rows go with it (ON DELETE CASCADE). */
  async remove(id: string): Promise<void> {
    await this.index.remove(id);
  }

  async expire(now: number): Promise<string[]> {
    return this.index.expired(now);
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
