import type { Logger } from 'pino';
import type { HttpError } from '../../model/errors.js';
import type { RequestInfo } from './request.js';

/** A timer that must not keep the process alive; replaced in tests. */
export type Schedule = (run: () => void, ms: number) => void;

const unrefTimer: Schedule = (run, ms) => void setTimeout(run, ms).unref();

export interface RejectionLogOptions {
  /** Lines a second before the rest are only counted: a flood of refused clients must not flood the log. */
  perSecond?: number;
  now?: () => number;
  schedule?: Schedule;
}

/**
 * Every refused request (an ntfy error, or a 5xx) as one info line naming the visitor's
 * address, the user and topics when known, the code and the path — so the owner of a
 * refused client can find out why in the server's log. ntfy logs the same event
 * (server.go handleError) but at debug level for 400/401/403/404/429/507, where nobody
 * sees it. Past `perSecond` lines in a second the rest are counted, and one summary
 * line says how many were left out once that second is over.
 */
export class RejectionLog {
  private readonly perSecond: number;
  private readonly now: () => number;
  private readonly schedule: Schedule;
  private windowStart = -Infinity;
  private written = 0;
  private suppressed = 0;

  constructor(
    private readonly log: Logger,
    /** The visitor's address (through a trusted proxy). */
    private readonly address: (req: RequestInfo) => string,
    options: RejectionLogOptions = {},
  ) {
    this.perSecond = options.perSecond ?? 20;
    this.now = options.now ?? Date.now;
    this.schedule = options.schedule ?? unrefTimer;
  }

  /** `cause` is what was thrown: kept (with its stack) when it was no HttpError, i.e. a 50001. */
  record(req: RequestInfo, e: HttpError, cause: unknown): void {
    const now = this.now();
    if (now - this.windowStart >= 1000) this.startWindow(now);
    if (this.written >= this.perSecond) {
      if (this.suppressed++ === 0) this.schedule(() => this.summarize(), this.windowStart + 1000 - now);
      return;
    }
    this.written++;
    const fields = {
      visitor_ip: this.address(req),
      ...(req.seen.user !== undefined && { user_name: req.seen.user }),
      ...(req.seen.topics && { topic: req.seen.topics.join(',') }),
      error_code: e.code,
      http_status: e.http,
      http_method: req.method,
      // The path only: the query may carry credentials (`?auth=`).
      http_path: req.path,
      ...(cause !== e && { err: cause }),
    };
    const message = `HTTP ${e.http} (ntfy error ${e.code}): ${e.error}`;
    // A failure no ntfy code names is a fault of the server: an error, with its stack.
    if (cause !== e) this.log.error(fields, message);
    else this.log.info(fields, message);
  }

  private startWindow(now: number): void {
    this.summarize();
    this.windowStart = now;
    this.written = 0;
  }

  /** Writes the count of lines left out, once per second that had any. */
  private summarize(): void {
    if (this.suppressed === 0) return;
    this.log.info({ suppressed: this.suppressed }, `${this.suppressed} more rejected requests not logged (over ${this.perSecond} a second)`);
    this.suppressed = 0;
  }
}
