import type Database from 'better-sqlite3';
import type { Receipt } from '../../alerts/receipt.js';
import type { ReceiptStore } from '../receipt-store.js';
import { receiptOf, receiptRow, sentWith, type ReceiptRow } from '../receipt-rows.js';

/**
 * In the cache's database, beside the jobs that repeat and escalate the alerts: made if
 * missing, as the jobs' table is, so a cache file of an older Tocsin gains it unversioned.
 */
const schema = `
  CREATE TABLE IF NOT EXISTS receipts (
    id TEXT PRIMARY KEY,
    topic TEXT NOT NULL,
    until INTEGER NOT NULL,
    keep_until INTEGER NOT NULL,
    acknowledged_at INTEGER NOT NULL,
    acknowledged_by TEXT NOT NULL,
    repeats INTEGER NOT NULL,
    sent TEXT NOT NULL,
    doc TEXT NOT NULL
  );
  CREATE INDEX IF NOT EXISTS idx_receipts_keep_until ON receipts (keep_until);
`;

/** The ReceiptStore on the embedded SQLite database; every call is one synchronous statement or transaction. */
export class SqliteReceiptStore implements ReceiptStore {
  private readonly statements;
  private readonly acknowledgeOnce;
  private readonly escalateOnce;

  constructor(db: Database.Database) {
    db.exec(schema);
    this.statements = {
      add: db.prepare(`INSERT INTO receipts (id, topic, until, keep_until, acknowledged_at, acknowledged_by, repeats, sent, doc)
        VALUES (@id, @topic, @until, @keep_until, @acknowledged_at, @acknowledged_by, @repeats, @sent, @doc)`),
      get: db.prepare<[string], ReceiptRow>('SELECT * FROM receipts WHERE id = ?'),
      acknowledge: db.prepare('UPDATE receipts SET acknowledged_at = ?, acknowledged_by = ? WHERE id = ? AND acknowledged_at = 0'),
      repeated: db.prepare<[string, number, number], ReceiptRow>('UPDATE receipts SET repeats = repeats + 1 WHERE id = ? AND repeats = ? AND acknowledged_at = 0 AND until >= ? RETURNING *'),
      setSent: db.prepare('UPDATE receipts SET sent = ? WHERE id = ? AND acknowledged_at = 0'),
      prune: db.prepare('DELETE FROM receipts WHERE keep_until < ?'),
    };
    this.acknowledgeOnce = db.transaction((id: string, by: string, at: number) => {
      const first = this.statements.acknowledge.run(at, by, id).changes === 1;
      const row = this.statements.get.get(id);
      return row && { receipt: receiptOf(row), first };
    });
    this.escalateOnce = db.transaction((id: string, step: number, at: number) => {
      const row = this.statements.get.get(id);
      const sent = row && row.acknowledged_at === 0 ? sentWith(row, step, at) : undefined;
      if (!row || sent === undefined) return undefined;
      this.statements.setSent.run(sent, id);
      return receiptOf({ ...row, sent });
    });
  }

  async add(receipt: Receipt): Promise<void> {
    this.statements.add.run(receiptRow(receipt));
  }

  async get(id: string): Promise<Receipt | undefined> {
    const row = this.statements.get.get(id);
    return row && receiptOf(row);
  }

  async acknowledge(id: string, by: string, at: number): Promise<{ receipt: Receipt; first: boolean } | undefined> {
    return this.acknowledgeOnce.immediate(id, by, at);
  }

  async repeated(id: string, n: number, due: number): Promise<Receipt | undefined> {
    const row = this.statements.repeated.get(id, n, due);
    return row && receiptOf(row);
  }

  async escalated(id: string, step: number, at: number): Promise<Receipt | undefined> {
    return this.escalateOnce.immediate(id, step, at);
  }

  async prune(now: number): Promise<number> {
    return this.statements.prune.run(now).changes;
  }
}
