import { randomBytes } from 'node:crypto';
import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { TooLarge, type AllowWrite, type FileUpload, type StoredFile, type Usage } from '../attachment-store.js';
import type { TalliedUpload, UploadTally } from '../upload-tally.js';

/**
 * Makes a complete part the stored file (moves or copies it where the store keeps files,
 * and records it), then calls `stored` in the same turn as the record, so the upload's
 * bytes are never counted both as written and as stored. The part is dropped after,
 * whatever the outcome; on failure nothing of the file may be left visible.
 */
export type KeepPart = (part: string, file: StoredFile, stored: () => void) => Promise<void>;

/**
 * An upload to a local part file, which `keep` makes the stored file on commit. Written
 * synchronously: a chunk lands in the page cache in microseconds, and writing it at once
 * means no copy of it is ever queued — a fast client waits on TCP instead.
 */
export class PartFile implements FileUpload {
  private fd: number | undefined;

  constructor(
    private readonly part: string,
    private readonly file: Pick<StoredFile, 'id' | 'owner'>,
    private readonly allow: AllowWrite,
    private readonly counted: TalliedUpload,
    private readonly keep: KeepPart,
  ) {
    this.fd = openSync(this.part, 'w');
  }

  get size(): number {
    return this.counted.size;
  }

  get usage(): Usage {
    return this.counted.usage;
  }

  write(chunk: Uint8Array): void {
    if (this.fd === undefined) throw new Error(`attachment ${this.file.id} is closed`);
    if (!this.allow(chunk.byteLength, this.size, this.usage)) {
      this.drop();
      throw new TooLarge(`attachment ${this.file.id} would pass a limit at ${this.size + chunk.byteLength} bytes`);
    }
    for (let done = 0; done < chunk.byteLength; ) done += writeSync(this.fd, chunk, done);
    this.counted.add(chunk.byteLength);
  }

  async commit(meta: Omit<StoredFile, 'id' | 'size' | 'owner'>): Promise<StoredFile> {
    this.close();
    const file: StoredFile = { ...this.file, size: this.size, ...meta };
    try {
      await this.keep(this.part, file, () => this.counted.end(true));
    } finally {
      this.drop(); // the part is gone or no longer needed; counted.end(false) is a no-op after `stored`
    }
    return file;
  }

  async abort(): Promise<void> {
    this.drop();
  }

  private drop(): void {
    this.close();
    rmSync(this.part, { force: true });
    this.counted.end(false);
  }

  private close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

/**
 * An upload of `id` to a part file of its own in `spool` (a node's directory of parts
 * for a store that keeps the bytes elsewhere), counted by `tally` from the committed
 * usage `readCommitted` reads; `keep` takes the part on commit.
 */
export async function spooledUpload(
  spool: string,
  tally: UploadTally,
  file: Pick<StoredFile, 'id' | 'owner'>,
  allow: AllowWrite,
  readCommitted: () => Promise<Usage>,
  keep: KeepPart,
): Promise<FileUpload> {
  const counted = await tally.begin(file.owner, readCommitted);
  try {
    return new PartFile(join(spool, `${file.id}.${randomBytes(6).toString('hex')}.part`), file, allow, counted, keep);
  } catch (err) {
    counted.end(false);
    throw err;
  }
}
