import { createHash } from 'node:crypto';
import type { Logger } from 'pino';
import type { UpstreamConfig } from '../config/schema.js';
import type { Outbound } from '../model/outbound.js';
import { TaskQueue } from './task-queue.js';

/** ntfy's poll request client gives up after 10 s. */
const sendTimeoutMs = 10_000;

/**
 * Poll requests to an upstream server (ntfy's forwardPollRequest, docs/config.md "iOS
 * instant notifications"): Apple lets only ntfy.sh wake ntfy's iOS app, so for each
 * message this server publishes it POSTs an empty body with `X-Poll-ID: <message id>` to
 * `<upstream-base-url>/<sha256 of base-url/topic>`; the upstream turns it into a
 * `poll_request` the app receives, and the app then fetches the message from here. The
 * upstream learns neither the topic nor the message. Sent after the publish was answered,
 * from a queue (4 at a time, at most 10,000 waiting; failures are logged, as ntfy).
 */
export class Upstream {
  private readonly queue: TaskQueue;

  constructor(
    private readonly config: UpstreamConfig & { ownBaseUrl: string },
    private readonly log: Logger,
  ) {
    this.queue = new TaskQueue(log, { name: 'upstream poll requests', concurrency: 4, limit: 10_000 });
  }

  /** A message went live; UnifiedPush publishes are not forwarded (their apps are not ntfy's), as ntfy. */
  delivered(event: Outbound, unifiedPush: boolean): void {
    if (unifiedPush || event.head.event !== 'message') return;
    const { id, topic } = event.head;
    this.queue.push(() => this.send(topic, id));
  }

  /** Resolves once every queued request was sent or given up on. */
  settled(): Promise<void> {
    return this.queue.settled();
  }

  private async send(topic: string, id: string): Promise<void> {
    const url = `${this.config.baseUrl}/${upstreamTopic(this.config.ownBaseUrl, topic)}`;
    const headers: Record<string, string> = { 'User-Agent': 'tocsin', 'X-Poll-ID': id };
    if (this.config.accessToken) headers.Authorization = `Bearer ${this.config.accessToken}`;
    try {
      const res = await fetch(url, { method: 'POST', body: '', headers, signal: AbortSignal.timeout(sendTimeoutMs) });
      await res.body?.cancel();
      if (res.status === 429) {
        this.log.warn({ id, status: res.status, upstream: this.config.baseUrl }, 'poll request refused by the upstream server (429): send fewer messages, or set upstream-access-token for an account with higher limits');
      } else if (res.status !== 200) {
        this.log.warn({ id, status: res.status, upstream: this.config.baseUrl }, 'poll request refused by the upstream server');
      }
    } catch (err) {
      this.log.warn({ id, err, upstream: this.config.baseUrl }, 'poll request to the upstream server failed');
    }
  }
}

/** The upstream topic of one of this server's topics: the SHA-256 of its URL, in hex (as the iOS app computes it). */
export function upstreamTopic(baseUrl: string, topic: string): string {
  return createHash('sha256').update(`${baseUrl}/${topic}`).digest('hex');
}
