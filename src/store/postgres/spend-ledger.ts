import type pg from 'pg';
import type { SpendLedger, SpendReport } from '../spend-ledger.js';

/**
 * The ledger's table (made by schema.ts): reports in the order they committed, by a
 * position taken under the lock of `spend_position`'s one row, as the message log takes
 * its own (log.ts), so a reader by position never passes over a report that commits late.
 */
export const spendLedgerSchema = `
  CREATE TABLE spend_position (id int PRIMARY KEY, last bigint NOT NULL);
  INSERT INTO spend_position (id, last) VALUES (1, 0);
  CREATE TABLE spend_reports (seq bigint PRIMARY KEY, node text NOT NULL, at bigint NOT NULL, report jsonb NOT NULL);
  CREATE INDEX spend_reports_at ON spend_reports (at);
`;

/** The first exchange reads this far back (ms): reports another node recorded just before this one started. */
const firstReachMs = 5_000;
/** Reports older than this are deleted (by any node, every `cleanEvery` exchanges). */
const keepMs = 60_000;
const cleanEvery = 40;

const record = `
  WITH p AS (UPDATE spend_position SET last = last + 1 WHERE id = 1 RETURNING last)
  INSERT INTO spend_reports (seq, node, at, report) SELECT last, $1, $2, $3 FROM p RETURNING seq`;

/**
 * The spend ledger on PostgreSQL. A node records its report and reads the other nodes'
 * reports after the last position it read (on its first exchange, those of the last few
 * seconds): each once, each node's in its order.
 */
export class PostgresSpendLedger implements SpendLedger {
  /** The last position read; undefined before the first exchange. */
  private readAt: number | undefined;
  private exchanges = 0;

  /** On the pool of a store whose schema is open (schema.ts); `now` is the clock reports are dated by. */
  constructor(
    private readonly pool: pg.Pool,
    private readonly now: () => number = Date.now,
  ) {}

  async exchange(report: SpendReport): Promise<SpendReport[]> {
    const now = this.now();
    const own = (await this.pool.query<{ seq: number }>(record, [report.node, now, report])).rows[0]?.seq ?? 0;
    const found = await (this.readAt === undefined
      ? this.pool.query<{ seq: number; report: SpendReport }>('SELECT seq, report FROM spend_reports WHERE at > $1 AND seq < $2 AND node <> $3 ORDER BY seq', [now - firstReachMs, own, report.node])
      : this.pool.query<{ seq: number; report: SpendReport }>('SELECT seq, report FROM spend_reports WHERE seq > $1 AND node <> $2 ORDER BY seq', [this.readAt, report.node]));
    this.readAt = Math.max(own, ...found.rows.map(({ seq }) => seq));
    if (++this.exchanges % cleanEvery === 0) await this.pool.query('DELETE FROM spend_reports WHERE at < $1', [now - keepMs]);
    return found.rows.map(({ report: { node, full, spends, holds } }) => ({ node, full, spends, holds }));
  }

  /** The pool is the store's: nothing of this port's own to close. */
  async close(): Promise<void> {}
}
