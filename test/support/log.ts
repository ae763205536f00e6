import { pino, type Logger } from 'pino';
import { Mailbox, type Json } from './clients.js';

/** A pino logger whose JSON lines are kept in order, for tests that read what a server logs. */
export class LogCapture {
  readonly records: Json[] = [];
  /** Wakes waiters on each line; the lines themselves are read from `records`. */
  private readonly arrivals = new Mailbox<Json>();
  readonly logger: Logger;

  constructor(level: pino.Level = 'debug') {
    const write = (line: string): void => {
      const record = JSON.parse(line) as Json;
      this.records.push(record);
      this.arrivals.put(record);
    };
    this.logger = pino({ level, base: undefined }, { write });
  }

  /** The records matching `match`, in order. */
  find(match: (r: Json) => boolean): Json[] {
    return this.records.filter(match);
  }

  /** Waits until `done()` holds, re-checking as each line arrives. */
  until(done: () => boolean, timeoutMs = 5000): Promise<void> {
    return this.arrivals.until(done, timeoutMs);
  }

  /** Waits for a record matching `match` among those from index `from` on. */
  async after(from: number, match: (r: Json) => boolean, timeoutMs = 5000): Promise<Json> {
    const found = (): Json | undefined => this.records.slice(from).find(match);
    await this.arrivals.until(() => found() !== undefined, timeoutMs);
    return found() as Json;
  }

  /** Waits until a record matching `match` arrives (or has), answering the first. */
  async next(match: (r: Json) => boolean, timeoutMs = 5000): Promise<Json> {
    await this.arrivals.until(() => this.records.some(match), timeoutMs);
    return this.records.find(match) as Json;
  }
}
