import type pg from 'pg';
import type { StoredFile } from '../attachment-store.js';
import type { FileIndex } from '../file-index.js';

/**
 * The rows of `attachment_files` (attachments.ts makes the table): the metadata and sums
 * of the files, whether their bytes are chunk rows beside them or objects in an S3 bucket.
 * Usage per owner and in all are sums over the rows (indexed by owner).
 */
export class PostgresFileIndex implements FileIndex {
  /** On the pool of a store whose schema is open; the pool is the store's to close. */
  constructor(private readonly pool: pg.Pool) {}

  /** On `on`: the pool, or a transaction's client that writes the file's bytes beside it. */
  async add(file: StoredFile, on: pg.Pool | pg.ClientBase = this.pool): Promise<void> {
    await on.query('INSERT INTO attachment_files (id, size, type, name, owner, expires) VALUES ($1, $2, $3, $4, $5, $6)', [file.id, file.size, file.type, file.name, file.owner, file.expires]);
  }

  async get(id: string): Promise<StoredFile | undefined> {
    return (await this.pool.query<StoredFile>('SELECT id, size, type, name, owner, expires FROM attachment_files WHERE id = $1', [id])).rows[0];
  }

  async remove(id: string): Promise<boolean> {
    return ((await this.pool.query('DELETE FROM attachment_files WHERE id = $1', [id])).rowCount ?? 0) > 0;
  }

  async expired(now: number): Promise<string[]> {
    return (await this.pool.query<{ id: string }>('DELETE FROM attachment_files WHERE expires > 0 AND expires <= $1 RETURNING id', [now])).rows.map(({ id }) => id);
  }

  async usage(owner: string): Promise<number> {
    return this.sum(' WHERE owner = $1', [owner]);
  }

  async total(): Promise<number> {
    return this.sum('', []);
  }

  async known(ids: readonly string[]): Promise<Set<string>> {
    if (ids.length === 0) return new Set();
    return new Set((await this.pool.query<{ id: string }>('SELECT id FROM attachment_files WHERE id = ANY($1)', [ids])).rows.map(({ id }) => id));
  }

  close(): void {}

  private async sum(where: string, params: string[]): Promise<number> {
    return (await this.pool.query<{ bytes: number }>(`SELECT coalesce(sum(size), 0)::int8 AS bytes FROM attachment_files${where}`, params)).rows[0]?.bytes ?? 0;
  }
}
