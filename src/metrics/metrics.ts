import { collectDefaultMetrics, Registry } from 'prom-client';
import type { CallObserver } from '../calls/caller.js';
import type { PingObserver } from './db-ping.js';
import type { MailObserver } from '../mail/outbound/mailer.js';
import type { HttpError } from '../model/errors.js';
import type { DeliveryObserver } from '../streams/hub.js';
import type { PublishObserver } from '../streams/publisher.js';
import type { LostRange } from '../store/live-feed.js';
import type { StoreObserver } from '../store/index.js';
import { ntfyMetrics } from './ntfy.js';
import { RequestCounts } from './requests.js';
import type { ServerState } from './state.js';
import { tocsinMetrics } from './tocsin.js';

/**
 * Every metric of one server, in its own Registry (two servers in one process, as in the
 * tests, keep apart). The hooks below are what the rest of the code calls, one line at
 * each place; each is O(1): a plain increment, or one histogram observation (~0.1 µs).
 * Gauges of state are read when scraped, never updated on the request path.
 */
export class Metrics implements PublishObserver, DeliveryObserver, MailObserver, CallObserver, StoreObserver, PingObserver {
  readonly registry = new Registry();
  private readonly requests = new RequestCounts();
  private state: ServerState | undefined;
  private readonly ntfy = ntfyMetrics(this.registry, this.requests, () => this.state);
  private readonly own = tocsinMetrics(this.registry, this.requests, () => this.state);

  constructor() {
    // process_* as ntfy's Go client exports them (its dashboard charts memory and open
    // files), and Node's event loop lag, heap and GC.
    collectDefaultMetrics({ register: this.registry });
  }

  /** The server whose state the gauges report, once it is built. */
  watch(state: ServerState): void {
    this.state = state;
  }

  /** The exposition text and its content type, for GET /metrics. */
  async scrape(): Promise<{ text: string; contentType: string }> {
    return { text: await this.registry.metrics(), contentType: this.registry.contentType };
  }

  /** A request handled without an error (ntfy_http_requests_total 200/20000). */
  answered(method: string): void {
    this.requests.answered(method);
  }

  /** A request answered with an ntfy error: ntfy_http_requests_total, and tocsin_limit_hits_total for a limit (RequestCounts' isLimit). */
  refused(method: string, e: HttpError): void {
    this.requests.refused(e.http, e.code, method);
  }

  /** Requests refused by a limit (413, 429, and the 400s of template time and title and tag sizes) so far, by ntfy code (tocsin_limit_hits_total). */
  limitHits(): Map<number, number> {
    return this.requests.limitHits();
  }

  /** A publish committed (acknowledged); `startedAt` is performance.now() when it passed the gate. */
  published(startedAt: number, unifiedPush: boolean): void {
    this.ntfy.publishedSuccess.inc();
    this.ntfy.publishDurationMs.set(Math.round(performance.now() - startedAt));
    if (unifiedPush) this.ntfy.unifiedPushSuccess.inc();
  }

  /** A publish that passed the gate and failed; rethrows, for `.catch(metrics.publishFailed)`. */
  readonly publishFailed = (err: unknown): never => {
    this.ntfy.publishedFailure.inc();
    throw err;
  };

  /** A Matrix push gateway request published, or refused past its JSON checks. */
  matrixPublished(ok: boolean): void {
    (ok ? this.ntfy.matrixSuccess : this.ntfy.matrixFailure).inc();
  }

  /** A forwarded e-mail the relay took, or one given up on (refused, retries spent, or dropped from a full queue). */
  mailSent(ok: boolean): void {
    (ok ? this.ntfy.emailsSentSuccess : this.ntfy.emailsSentFailure).inc();
  }

  /** An e-mail published (250), or refused at RCPT TO or DATA (as ntfy counts them). */
  mailReceived(ok: boolean): void {
    (ok ? this.ntfy.emailsReceivedSuccess : this.ntfy.emailsReceivedFailure).inc();
  }

  /** A phone call Twilio took, or one that failed (refused, or Twilio not reached). */
  callMade(ok: boolean): void {
    (ok ? this.ntfy.callsSuccess : this.ntfy.callsFailure).inc();
  }

  /** The database answered a ping (or failed to) after `seconds`. */
  databasePinged(seconds: number, ok: boolean): void {
    this.ntfy.dbPing.set(seconds);
    if (!ok) this.own.dbPingFailures.inc();
  }

  slowSubscriberDropped(format: string): void {
    this.own.slowSubscribers.inc({ format });
  }

  committed(size: number, seconds: number): void {
    this.own.batchSize.observe(size);
    this.own.commitLatency.observe(seconds);
  }

  /** The live feed lost `range` (LiveFeed.lost$). */
  lostRange(range: LostRange): void {
    this.own.lostRanges.inc();
    this.own.lostPositions.inc(range.to - range.from + 1);
  }

  chainRetried(): void {
    this.own.chainRetries.inc();
  }

  /** Peers linked to this node now (cluster/peer-links.ts). */
  peerLinks(count: number): void {
    this.own.peerLinks.set(count);
  }

  peerBatch(): void {
    this.own.peerBatches.inc();
  }

  forwardedMessages(count: number): void {
    this.own.forwarded.inc(count);
  }

  tailLag(positions: number): void {
    this.own.tailLag.set(positions);
  }

  checkOutStarted(): void {
    this.own.poolWaiters.inc();
  }

  checkOutEnded(seconds: number): void {
    this.own.poolWaiters.dec();
    this.own.poolWait.observe(seconds);
  }

  delivered(seconds: number): void {
    this.own.deliverLatency.observe(seconds);
  }
}
