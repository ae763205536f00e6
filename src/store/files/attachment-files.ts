import { closeSync, createReadStream, openSync, rmSync, writeSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import { TooLarge, type AllowWrite, type AttachmentStore, type FileUpload, type StoredFile } from '../attachment-store.js';

const idPattern = /^[A-Za-z0-9]{1,64}$/;

/**
 * Attachments as files in one directory: `<id>` holds the bytes and `<id>.json` what is
 * known of them. An upload is written to `<id>.part` and renamed when complete, so a
 * crash or an aborted upload never leaves a half file that looks whole; leftovers are
 * cleared when the store opens.
 */
export class AttachmentFiles implements AttachmentStore {
  private readonly files = new Map<string, StoredFile>();
  private readonly byOwner = new Map<string, number>();
  private bytes = 0;

  private constructor(private readonly dir: string) {}

  static async open(dir: string): Promise<AttachmentFiles> {
    await mkdir(dir, { recursive: true });
    const store = new AttachmentFiles(dir);
    const names = new Set(await readdir(dir));
    for (const name of names) {
      if (name.endsWith('.part')) await rm(join(dir, name), { force: true });
      if (!name.endsWith('.json')) continue;
      const id = name.slice(0, -5);
      if (!names.has(id)) {
        await rm(join(dir, name), { force: true });
        continue;
      }
      store.add(JSON.parse(await readFile(join(dir, name), 'utf8')) as StoredFile);
    }
    for (const name of names) {
      if (idPattern.test(name) && !store.files.has(name)) await rm(join(dir, name), { force: true }); // bytes without metadata
    }
    return store;
  }

  create(id: string, owner: string, allow: AllowWrite): FileUpload {
    if (!idPattern.test(id)) throw new Error(`invalid attachment id ${JSON.stringify(id)}`);
    return new PartFile(this, join(this.dir, `${id}.part`), id, owner, allow);
  }

  stat(id: string): StoredFile | undefined {
    return this.files.get(id);
  }

  read(id: string, range?: { start: number; end: number }): Readable {
    return createReadStream(join(this.dir, id), range);
  }

  async remove(id: string): Promise<void> {
    const file = this.files.get(id);
    if (!file) return;
    this.files.delete(id);
    this.count(file.owner, -file.size);
    await rm(join(this.dir, `${id}.json`), { force: true });
    await rm(join(this.dir, id), { force: true });
  }

  async expire(now: number): Promise<string[]> {
    const expired = [...this.files.values()].filter((f) => f.expires <= now).map((f) => f.id);
    for (const id of expired) await this.remove(id);
    return expired;
  }

  usage(owner: string): number {
    return this.byOwner.get(owner) ?? 0;
  }

  get total(): number {
    return this.bytes;
  }

  /** Makes a completed part file a stored file (its bytes were counted as they came). */
  async keep(part: string, file: StoredFile): Promise<void> {
    await writeFile(join(this.dir, `${file.id}.json`), JSON.stringify(file));
    await rename(part, join(this.dir, file.id));
    this.files.set(file.id, file);
  }

  private add(file: StoredFile): void {
    this.files.set(file.id, file);
    this.count(file.owner, file.size);
  }

  /** Bytes of `owner` come (written, found at open) or go (dropped, removed). */
  count(owner: string, delta: number): void {
    this.bytes += delta;
    const left = (this.byOwner.get(owner) ?? 0) + delta;
    if (left > 0) this.byOwner.set(owner, left);
    else this.byOwner.delete(owner);
  }
}

/**
 * Written synchronously: a chunk lands in the page cache in microseconds, and writing it
 * at once means no copy of it is ever queued — a fast client waits on TCP instead.
 */
class PartFile implements FileUpload {
  size = 0;
  private fd: number | undefined;

  constructor(
    private readonly store: AttachmentFiles,
    private readonly path: string,
    private readonly id: string,
    private readonly owner: string,
    private readonly allow: AllowWrite,
  ) {
    this.fd = openSync(path, 'w');
  }

  write(chunk: Uint8Array): void {
    if (this.fd === undefined) throw new Error(`attachment ${this.id} is closed`);
    if (!this.allow(chunk.byteLength, this.size)) {
      this.drop();
      throw new TooLarge(`attachment ${this.id} would pass a limit at ${this.size + chunk.byteLength} bytes`);
    }
    for (let done = 0; done < chunk.byteLength; ) done += writeSync(this.fd, chunk, done);
    this.size += chunk.byteLength;
    this.store.count(this.owner, chunk.byteLength);
  }

  async commit(meta: Omit<StoredFile, 'id' | 'size' | 'owner'>): Promise<StoredFile> {
    this.close();
    const file: StoredFile = { id: this.id, size: this.size, owner: this.owner, ...meta };
    try {
      await this.store.keep(this.path, file);
    } catch (err) {
      this.drop();
      throw err;
    }
    return file;
  }

  async abort(): Promise<void> {
    this.drop();
  }

  private drop(): void {
    this.close();
    rmSync(this.path, { force: true });
    this.store.count(this.owner, -this.size);
    this.size = 0;
  }

  private close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}
