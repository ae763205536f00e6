import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type Database from 'better-sqlite3';
import type { StoredFile } from '../../store/attachment-store.js';
import { indexFile } from '../../store/files/attachment-files.js';
import { indexSchemaVersion } from '../../store/files/attachment-index.js';
import { NotImportable } from '../not-importable.js';
import type { UploadedFile } from '../write-messages.js';
import { checkVersion, openSource } from './source-file.js';

/**
 * A Tocsin attachment-cache-dir: each file's bytes under its message id, and index.db,
 * which records its owner, type, name and expiry. The index is read here, read-only,
 * rather than through AttachmentFiles, which on opening clears what it takes for
 * leftovers of interrupted uploads: the import never changes its source.
 */
export class TocsinAttachments {
  private readonly db: Database.Database;
  private readonly lookup: Database.Statement;

  constructor(private readonly dir: string) {
    if (!existsSync(dir) || !statSync(dir).isDirectory()) throw new NotImportable(dir, 'no such directory (the attachment-cache-dir to import)');
    const index = join(dir, indexFile);
    if (!existsSync(index)) throw new NotImportable(dir, `not a Tocsin attachment-cache-dir: it has no ${indexFile}`);
    this.db = openSource(index, { what: 'attachment index', tables: { files: ['id', 'owner', 'size', 'type', 'name', 'expires'] } });
    try {
      checkVersion(index, 'attachment index', this.db.pragma('user_version', { simple: true }) as number, indexSchemaVersion);
    } catch (err) {
      this.db.close();
      throw err;
    }
    this.lookup = this.db.prepare('SELECT id, owner, size, type, name, expires FROM files WHERE id = ?');
  }

  /** The file of message `id`, if the directory keeps one. */
  fileOf(id: string): UploadedFile | undefined {
    const stored = this.lookup.get(id) as StoredFile | undefined;
    return stored && { path: join(this.dir, id), owner: stored.owner, type: stored.type, name: stored.name, expires: stored.expires };
  }

  count(): number {
    return this.db.prepare('SELECT COUNT(*) FROM files').pluck().get() as number;
  }

  close(): void {
    this.db.close();
  }
}
