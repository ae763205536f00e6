import { createWriteStream, type WriteStream } from 'node:fs';
import type { Logger } from 'pino';
import type { BanConfig } from '../config/schema.js';
import { LruMap } from '../model/lru-map.js';
import { takeTokens, type BucketState } from './bucket.js';
import { weightOf } from './ban-weights.js';

/**
 * Networks whose strikes are held, least recently struck forgotten first: ~200 bytes each,
 * so ~20 MB at most. An attacker cycling through more addresses than this within a window
 * gets each forgotten one a fresh budget — as every one of those addresses already has.
 */
export const defaultMaxNetworks = 100_000;

/** Lines queued for the file before more are dropped (counted): a disk that stopped taking writes must not grow the heap. */
const maxQueuedBytes = 1024 * 1024;

interface Strikes extends BucketState {
  /** When its last line was written (ms); one line per window at most. */
  lineAt: number;
}

/**
 * ntfy 2.26's abuse ban feed: every refused request costs its visitor network the strikes
 * `ban-weights` gives its ntfy code, from a budget of `ban-threshold` that refills over
 * `ban-window` (a token bucket, as ntfy's). A refusal the budget cannot cover appends
 *
 *     2026-07-10T12:34:56Z 1.2.3.4 1.2.3.4/32 429 42901
 *
 * (RFC 3339 UTC time, the refused request's address, its network as the visitor
 * prefix bits mask it, HTTP status, ntfy code) to `ban-file` for fail2ban, at most once
 * per network per window. Writes go through one append stream, flushed at `close`.
 */
export class BanFeed {
  private readonly strikes: LruMap<string, Strikes>;
  private readonly out: WriteStream;
  /** Lines written (tocsin_ban_lines_total) and dropped for a stalled file. */
  lines = 0;
  dropped = 0;

  constructor(
    private readonly config: BanConfig,
    /** An address's visitor network as `address/bits` (visitors/address.ts's visitorKey, with the bits always written). */
    private readonly networkOf: (address: string) => string,
    private readonly log: Logger,
    private readonly now: () => number = Date.now,
    maxNetworks = defaultMaxNetworks,
  ) {
    this.strikes = new LruMap(maxNetworks, { now });
    this.out = createWriteStream(config.file, { flags: 'a' });
    // A file that cannot be written is logged, not fatal: the server keeps serving.
    this.out.on('error', (err) => this.log.error({ err, file: config.file }, 'ban-file cannot be written'));
  }

  /** A request from `address` was refused with `status` and ntfy `code`. */
  record(address: string, status: number, code: number): void {
    if (status < 400) return;
    const weight = weightOf(this.config.weights, code);
    if (weight === 0) return;
    const now = this.now();
    const network = this.networkOf(address);
    const { threshold, windowMs } = this.config;
    let strikes = this.strikes.get(network);
    if (!strikes) {
      strikes = { tokens: threshold, at: now, lineAt: -Infinity };
      this.strikes.set(network, strikes);
    }
    if (takeTokens(strikes, weight, now, threshold, windowMs / Math.max(1, threshold))) return;
    if (now - strikes.lineAt < windowMs) return;
    strikes.lineAt = now;
    this.write(`${new Date(now).toISOString().replace(/\.\d{3}Z$/, 'Z')} ${address} ${network} ${status} ${code}\n`);
  }

  /** Housekeeping: forgets networks whose budget is full again and whose line (if any) is a window old. */
  forget(): void {
    const cutoff = this.now() - this.config.windowMs;
    this.strikes.expire(cutoff, (s) => s.at <= cutoff && s.lineAt <= cutoff);
  }

  /** Networks held now (for tests: bounded). */
  get size(): number {
    return this.strikes.size;
  }

  /** Flushes what is queued and closes the file. */
  close(): Promise<void> {
    return new Promise((resolve) => this.out.end(resolve));
  }

  private write(line: string): void {
    if (this.out.writableLength > maxQueuedBytes) {
      this.dropped++;
      return;
    }
    this.lines++;
    this.out.write(line);
  }
}
