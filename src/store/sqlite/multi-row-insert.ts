import type Database from 'better-sqlite3';

/**
 * `INSERT INTO … VALUES (…), (…), …` for many rows in one statement: a batch costs one
 * native call instead of one a row (each call binds, steps, resets and returns a result
 * object). A statement per row count, prepared at first use; longer batches go in
 * chunks of `maxRows`.
 */
export class MultiRowInsert {
  private readonly statements: Database.Statement[] = [];

  /** `head` is the statement up to VALUES (`INSERT INTO t (a, b)`), naming `columns` columns (a row's length). */
  constructor(
    private readonly db: Database.Database,
    private readonly head: string,
    private readonly columns: number,
    private readonly maxRows = 64,
  ) {}

  /** Inserts the rows in order and returns the rowid of the last: theirs are the consecutive ones up to it. */
  run(rows: readonly (readonly unknown[])[]): number {
    let last = 0;
    for (let at = 0; at < rows.length; at += this.maxRows) {
      const count = Math.min(this.maxRows, rows.length - at);
      const values: unknown[] = [];
      for (let i = at; i < at + count; i++) for (const value of rows[i] as readonly unknown[]) values.push(value);
      last = Number(this.statement(count).run(values).lastInsertRowid);
    }
    return last;
  }

  private statement(rows: number): Database.Statement {
    let statement = this.statements[rows];
    if (!statement) {
      const row = `(${Array.from({ length: this.columns }, () => '?').join(', ')})`;
      statement = this.db.prepare(`${this.head} VALUES ${Array.from({ length: rows }, () => row).join(', ')}`);
      this.statements[rows] = statement;
    }
    return statement;
  }
}
