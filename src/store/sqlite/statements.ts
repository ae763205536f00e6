import type Database from 'better-sqlite3';

/**
 * Statements prepared once per SQL text: the stores run the same few statements for
 * every request and every job, and preparing one costs more than running it.
 */
export class Statements {
  private readonly prepared = new Map<string, Database.Statement>();

  constructor(private readonly db: Database.Database) {}

  get(text: string): Database.Statement {
    let statement = this.prepared.get(text);
    if (!statement) {
      statement = this.db.prepare(text);
      this.prepared.set(text, statement);
    }
    return statement;
  }
}
