import { closeSync, openSync, rmSync, writeSync } from 'node:fs';
import { rename, rm } from 'node:fs/promises';
import { TooLarge, type AllowWrite, type FileUpload, type StoredFile, type Usage } from '../attachment-store.js';
import type { TalliedUpload } from '../upload-tally.js';

/**
 * An upload to `<path>.part`, renamed to `path` and then indexed (`record`) on commit.
 * Written synchronously: a chunk lands in the page cache in microseconds, and writing it
 * at once means no copy of it is ever queued — a fast client waits on TCP instead.
 */
export class PartFile implements FileUpload {
  private readonly part: string;
  private fd: number | undefined;

  constructor(
    private readonly path: string,
    private readonly file: Pick<StoredFile, 'id' | 'owner'>,
    private readonly allow: AllowWrite,
    private readonly counted: TalliedUpload,
    private readonly record: (file: StoredFile) => void,
  ) {
    this.part = `${path}.part`;
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
      await rename(this.part, this.path);
    } catch (err) {
      this.drop();
      throw err;
    }
    try {
      this.record(file);
    } catch (err) {
      await rm(this.path, { force: true });
      this.drop();
      throw err;
    }
    this.counted.end(true); // in the same turn as the record: never counted both as written and stored
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
