import { createReadStream } from 'node:fs';
import { mkdir, rename, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';
import type { AllowWrite, AttachmentStore, FileUpload, StoredFile } from '../attachment-store.js';
import { UploadTally } from '../upload-tally.js';
import { AttachmentIndex } from './attachment-index.js';
import { clearLeftovers, idPattern } from './leftovers.js';
import { PartFile, type KeepPart } from './part-file.js';

/** The attachment index's file in the directory. */
export const indexFile = 'index.db';

/**
 * Attachments as files in one directory: `<id>` holds the bytes, `index.db` (see
 * AttachmentIndex) what is known of them and their sums. An upload is written to
 * `<id>.part`, renamed when complete and then indexed, so a crash or an aborted upload
 * never leaves a half file that looks whole. Several processes may use the directory at
 * once: each reads the others' files from the index, and opening clears only leftovers
 * old enough that no live upload or commit can own them (see clearLeftovers).
 */
export class AttachmentFiles implements AttachmentStore {
  private readonly tally = new UploadTally();

  private constructor(
    private readonly dir: string,
    private readonly index: AttachmentIndex,
  ) {}

  static async open(dir: string): Promise<AttachmentFiles> {
    await mkdir(dir, { recursive: true });
    const index = new AttachmentIndex(join(dir, indexFile));
    try {
      await clearLeftovers(dir, index, Date.now());
    } catch (err) {
      index.close();
      throw err;
    }
    return new AttachmentFiles(dir, index);
  }

  async create(id: string, owner: string, allow: AllowWrite): Promise<FileUpload> {
    if (!idPattern.test(id)) throw new Error(`invalid attachment id ${JSON.stringify(id)}`);
    const counted = await this.tally.begin(owner, async () => ({ owner: this.index.usage(owner), total: this.index.total() }));
    try {
      return new PartFile(`${join(this.dir, id)}.part`, { id, owner }, allow, counted, this.keep);
    } catch (err) {
      counted.end(false);
      throw err;
    }
  }

  /** Renamed to its id, then indexed. */
  private readonly keep: KeepPart = async (part, file, stored) => {
    const path = join(this.dir, file.id);
    await rename(part, path);
    try {
      this.index.add(file);
    } catch (err) {
      await rm(path, { force: true });
      throw err;
    }
    stored();
  };

  async stat(id: string): Promise<StoredFile | undefined> {
    return this.index.get(id);
  }

  async read(id: string, range?: { start: number; end: number }): Promise<Readable> {
    return createReadStream(join(this.dir, id), range);
  }

  async remove(id: string): Promise<void> {
    if (this.index.remove(id)) await rm(join(this.dir, id), { force: true });
  }

  async expire(now: number): Promise<string[]> {
    const expired = this.index.expired(now);
    for (const id of expired) await rm(join(this.dir, id), { force: true });
    return expired;
  }

  async usage(owner: string): Promise<number> {
    return this.index.usage(owner) + this.tally.writing(owner);
  }

  async total(): Promise<number> {
    return this.index.total() + this.tally.writing();
  }

  async close(): Promise<void> {
    this.index.close();
  }
}
