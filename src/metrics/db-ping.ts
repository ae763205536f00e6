import type { Logger } from 'pino';
import { repeatLocally, type LocalTimer } from '../housekeeping/local-timer.js';

/** Told how long each ping of the database took, and whether it failed. */
export interface PingObserver {
  databasePinged(seconds: number, ok: boolean): void;
}

/** A ping not answered within this long counts as failed (a hung database must not freeze the gauge). */
const pingTimeoutMs = 10_000;

/**
 * ntfy_db_ping_seconds (ntfy 2.37.2): pings the store's database at once and then every
 * `everyMs` (manager-interval), and reports how long it took to answer — or to fail, or
 * to reach the timeout, so a database that stops answering shows as slow rather than as
 * its last good value. Failures are logged; nothing is retried before the next interval.
 */
export function watchDatabasePing(ping: () => Promise<void>, observer: PingObserver, log: Logger, everyMs: number): LocalTimer {
  let stopped = false;
  let abort = (): void => undefined;
  const aborted = new Promise<void>((resolve) => (abort = resolve));
  const limitMs = Math.min(pingTimeoutMs, everyMs);
  const measure = async (): Promise<void> => {
    const started = performance.now();
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`no answer within ${limitMs} ms`)), limitMs).unref();
    });
    let ok = true;
    try {
      await Promise.race([ping(), timeout, aborted]);
    } catch (err) {
      ok = false;
      if (!stopped) log.warn({ err }, 'database ping failed');
    } finally {
      clearTimeout(timer);
    }
    if (!stopped) observer.databasePinged((performance.now() - started) / 1000, ok);
  };
  void measure();
  const repeat = repeatLocally(measure, everyMs);
  return {
    // The ping under way is not waited for: the store closes next, and its answer no longer matters.
    async stop() {
      stopped = true;
      abort();
      await repeat.stop();
    },
  };
}
