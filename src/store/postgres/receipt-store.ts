import type pg from 'pg';
import type { Receipt } from '../../alerts/receipt.js';
import type { ReceiptStore } from '../receipt-store.js';
import { receiptOf, receiptRow, sentWith, type ReceiptRow } from '../receipt-rows.js';

/** Schema version 4 (schema.ts): the receipts of alerts repeated until acknowledged. */
export const receiptsSchema = `
  CREATE TABLE receipts (
    id text PRIMARY KEY,
    topic text NOT NULL,
    until bigint NOT NULL,
    keep_until bigint NOT NULL,
    acknowledged_at bigint NOT NULL,
    acknowledged_by text NOT NULL,
    repeats int NOT NULL,
    sent text NOT NULL,
    doc text NOT NULL
  );
  CREATE INDEX receipts_keep_until ON receipts (keep_until);
`;

/**
 * The ReceiptStore on PostgreSQL, shared by every node on the database: each change is one
 * conditional UPDATE, so of two nodes racing for the same repeat, step or acknowledgement
 * exactly one wins; an escalation's list is compared and set.
 */
export class PostgresReceiptStore implements ReceiptStore {
  /** On the pool of a store whose schema is open (schema.ts); the pool is the store's to close. */
  constructor(private readonly pool: pg.Pool) {}

  async add(receipt: Receipt): Promise<void> {
    const r = receiptRow(receipt);
    await this.pool.query(
      'INSERT INTO receipts (id, topic, until, keep_until, acknowledged_at, acknowledged_by, repeats, sent, doc) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)',
      [r.id, r.topic, r.until, r.keep_until, r.acknowledged_at, r.acknowledged_by, r.repeats, r.sent, r.doc],
    );
  }

  async get(id: string): Promise<Receipt | undefined> {
    const row = (await this.pool.query<ReceiptRow>('SELECT * FROM receipts WHERE id = $1', [id])).rows[0];
    return row && receiptOf(row);
  }

  async acknowledge(id: string, by: string, at: number): Promise<{ receipt: Receipt; first: boolean } | undefined> {
    const changed = (await this.pool.query<ReceiptRow>('UPDATE receipts SET acknowledged_at = $3, acknowledged_by = $2 WHERE id = $1 AND acknowledged_at = 0 RETURNING *', [id, by, at])).rows[0];
    if (changed) return { receipt: receiptOf(changed), first: true };
    const receipt = await this.get(id);
    return receipt && { receipt, first: false };
  }

  async repeated(id: string, n: number, due: number): Promise<Receipt | undefined> {
    const { rows } = await this.pool.query<ReceiptRow>('UPDATE receipts SET repeats = repeats + 1 WHERE id = $1 AND repeats = $2 AND acknowledged_at = 0 AND until >= $3 RETURNING *', [id, n, due]);
    return rows[0] && receiptOf(rows[0]);
  }

  async escalated(id: string, step: number, at: number): Promise<Receipt | undefined> {
    const row = (await this.pool.query<ReceiptRow>('SELECT * FROM receipts WHERE id = $1 AND acknowledged_at = 0', [id])).rows[0];
    const sent = row && sentWith(row, step, at);
    if (!row || sent === undefined) return undefined;
    const { rows } = await this.pool.query<ReceiptRow>('UPDATE receipts SET sent = $2 WHERE id = $1 AND sent = $3 AND acknowledged_at = 0 RETURNING *', [id, sent, row.sent]);
    return rows[0] && receiptOf(rows[0]);
  }

  async prune(now: number): Promise<number> {
    return (await this.pool.query('DELETE FROM receipts WHERE keep_until < $1', [now])).rowCount ?? 0;
  }
}
