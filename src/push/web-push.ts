import type { LookupFunction } from 'node:net';
import type { Logger } from 'pino';
import webpush from 'web-push';
import type { WebPushConfig } from '../config/schema.js';
import type { Outbound } from '../model/outbound.js';
import type { WebPushStore, WebPushSubscription } from '../store/webpush-store.js';
import { endpointRefusal } from './endpoint-pattern.js';
import { NotPublicHost, publicAddresses, publicLookup, type HostResolver } from './public-address.js';
import { postPush } from './push-request.js';
import { TaskQueue } from './task-queue.js';

/** A push service that does not answer within this long is given up on (the push is lost, the subscription kept). */
const sendTimeoutMs = 10_000;
/**
 * A VAPID JWT is signed once per push service and reused for this long; it is valid for
 * 12 h (RFC 8292 allows 24). Signing costs ~1 ms of CPU here (web-push signs through
 * jws and asn1.js), as much as encrypting the push.
 */
const vapidReuseMs = 3_600_000;
const vapidValidSeconds = 12 * 3600;
/** A subscription's host must resolve within this long (a push service's name resolves at once). */
const subscribeLookupTimeoutMs = 2_000;
/** At each push, within the send's own timeout. */
const sendLookupTimeoutMs = 5_000;
/** Push service origins whose JWT is kept; browsers use a handful, the bound is against the unforeseen. */
const vapidAudiencesKept = 1_000;
/**
 * ntfy's fallback TTL (server_webpush.go): with neither web-push-ttl nor cache-duration a
 * TTL of 0 would mean "now or never", lost on any phone offline at that moment; 28 days is
 * the longest WebKit/APNs hold a push.
 */
const defaultTtlSeconds = 28 * 24 * 3600;

/** How long a push service keeps a push for an unreachable browser: web-push-ttl, else cache-duration, else 28 days. */
export function pushTtlSeconds(webPushTtlMs: number, cacheDurationMs: number): number {
  const ms = webPushTtlMs > 0 ? webPushTtlMs : cacheDurationMs;
  return ms > 0 ? Math.floor(ms / 1000) : defaultTtlSeconds;
}

/**
 * Answers that prove a subscription dead for good (ntfy's webPushPermanentFailureStatusCodes):
 * 404/410 the push service no longer knows it (RFC 8030 §7.3), 401/403 the VAPID key no
 * longer matches the one it was made with. Everything else — 429, 5xx, no answer — may pass,
 * and a removed subscription cannot come back until the user opens the web app again.
 */
const goneStatuses = new Set([401, 403, 404, 410]);

/**
 * Web Push to browsers (ntfy's server_webpush.go): every message that goes live is pushed
 * to each browser subscribed to its topic, encrypted for it (RFC 8291, aes128gcm) and
 * signed with the server's VAPID key (RFC 8292) by the `web-push` package; the request
 * itself is bounded in time, and goes only to a public address unless
 * web-push-allow-private-endpoints. Pushes run on a queue after the
 * publish was answered, 8 at a time, at most 10,000 waiting (a dead push service cannot
 * hold up publishing or grow the heap). A push service answering 401, 403, 404 or 410 has
 * dropped the subscription: it is removed. One that took a push renews the subscription's
 * age, as ntfy: browsers that cannot renew it themselves (iOS web apps) would otherwise
 * expire while in use. Renewals are written in batches, one store call per run of pushes.
 */
export class WebPush {
  private readonly queue: TaskQueue;
  private readonly vapid: webpush.VapidKeys & { subject: string };
  private readonly vapidHeaders = new Map<string, { authorization: string; until: number }>();
  private readonly lookup: LookupFunction | undefined;
  /** Endpoints whose push was taken, renewed by the next `renew` task (at most one waits). */
  private readonly taken = new Set<string>();

  constructor(
    readonly store: WebPushStore,
    private readonly config: WebPushConfig,
    private readonly options: { baseUrl: string; ttlSeconds: number; log: Logger; resolve: HostResolver },
  ) {
    // Resolved again at each push, and connected to the address checked (no DNS rebinding).
    this.lookup = config.allowPrivateEndpoints ? undefined : publicLookup(options.resolve, sendLookupTimeoutMs);
    // ntfy's webpush-go adds mailto: to a bare address; web-push wants the URI.
    const subject = /^(mailto|https):/.test(config.emailAddress) ? config.emailAddress : `mailto:${config.emailAddress}`;
    this.vapid = { subject, publicKey: config.publicKey, privateKey: config.privateKey };
    this.queue = new TaskQueue(options.log, { name: 'web push', concurrency: 8, limit: 10_000 });
  }

  /**
   * Why a browser's endpoint is refused, or undefined when it is at an allowed push service
   * (web-push-allowed-endpoints, matched on the parsed URL; ntfy's web app offers only
   * these) whose host resolves to public addresses alone.
   */
  refusalOf(endpoint: string): string | undefined {
    return endpointRefusal(endpoint, this.config.allowedEndpoints);
  }

  /** Why the endpoint's host is refused (it resolves to a non-public address, or not at all), checked after refusalOf. */
  async hostRefusalOf(endpoint: string): Promise<string | undefined> {
    if (this.config.allowPrivateEndpoints) return undefined;
    try {
      await publicAddresses(new URL(endpoint).hostname, this.options.resolve, subscribeLookupTimeoutMs);
      return undefined;
    } catch (err) {
      if (err instanceof NotPublicHost) return err.message;
      throw err;
    }
  }

  /**
   * A message went live: queues its push to every browser subscribed to its topic, with
   * ntfy's payload — the message's JSON as stored, its topic's URL as `subscription_id`.
   */
  delivered(event: Outbound): void {
    if (event.head.event !== 'message') return; // ntfy's service worker shows every push it gets as a notification
    const topic = event.head.topic;
    const payload = `{"event":"message","subscription_id":${JSON.stringify(`${this.options.baseUrl}/${topic}`)},"message":${event.json}}`;
    this.queue.push(async () => {
      for (const subscription of await this.store.forTopic(topic)) this.queue.push(() => this.send(subscription, payload, true).then(() => undefined));
    });
  }

  /**
   * The housekeeping (ntfy's pruneAndNotifyWebPushSubscriptions): removes subscriptions
   * not renewed for web-push-expiry-duration, then warns those not renewed for
   * web-push-expiry-warning-duration (the web app renews on its next start). A duration of
   * 0 turns its part off. `now` in Unix seconds.
   */
  async housekeep(now: number): Promise<{ removed: number; warned: number }> {
    const { expiryMs, expiryWarningMs } = this.config;
    const removed = expiryMs > 0 ? await this.store.removeExpired(now - expiryMs / 1000) : 0;
    if (expiryWarningMs <= 0) return { removed, warned: 0 };
    const warned: string[] = [];
    for (const subscription of await this.store.expiring(now - expiryWarningMs / 1000)) {
      if (await this.send(subscription, '{"event":"subscription_expiring"}', false)) warned.push(subscription.id);
    }
    await this.store.markWarned(warned, now);
    return { removed, warned: warned.length };
  }

  /** Resolves once every queued push was sent or given up on. */
  settled(): Promise<void> {
    return this.queue.settled();
  }

  /** The VAPID `Authorization` for a push to `endpoint`: signed for its push service's origin, reused for an hour. */
  private authorization(endpoint: string): string {
    const audience = new URL(endpoint).origin;
    const now = Date.now();
    const kept = this.vapidHeaders.get(audience);
    if (kept && kept.until > now) return kept.authorization;
    const { subject, publicKey, privateKey } = this.vapid;
    const { Authorization } = webpush.getVapidHeaders(audience, subject, publicKey, privateKey, 'aes128gcm', Math.floor(now / 1000) + vapidValidSeconds);
    if (this.vapidHeaders.size >= vapidAudiencesKept) this.vapidHeaders.clear();
    this.vapidHeaders.set(audience, { authorization: Authorization, until: now + vapidReuseMs });
    return Authorization;
  }

  /**
   * Pushes `payload` to one browser; true when its push service took it, which renews the
   * subscription when `renews` (a message; not the expiry warning, which would otherwise
   * undo the expiry it warns of). Failures are logged, never thrown.
   */
  private async send(subscription: WebPushSubscription, payload: string, renews: boolean): Promise<boolean> {
    const { log } = this.options;
    const context = { webPushSubscriptionId: subscription.id, endpoint: subscription.endpoint };
    try {
      // A subscription stored before the endpoint checks (or under another allow-list) is
      // checked again: an IP-literal host never reaches the lookup that guards the connection.
      const refusal = this.refusalOf(subscription.endpoint);
      if (refusal !== undefined) {
        await this.store.removeByEndpoint(subscription.endpoint);
        log.warn({ ...context, refusal }, 'web push endpoint not allowed; subscription removed');
        return false;
      }
      const request = webpush.generateRequestDetails({ endpoint: subscription.endpoint, keys: { auth: subscription.auth, p256dh: subscription.p256dh } }, payload, {
        headers: { Authorization: this.authorization(subscription.endpoint) },
        TTL: this.options.ttlSeconds,
        urgency: 'high', // as ntfy: iOS delivers only these reliably
        contentEncoding: 'aes128gcm',
      });
      const headers = Object.fromEntries(Object.entries(request.headers).map(([name, value]) => [name, String(value)]));
      const status = await postPush(request.endpoint, headers, request.body, { lookup: this.lookup, timeoutMs: sendTimeoutMs });
      if (status >= 200 && status < 300) {
        if (renews) this.renewLater(subscription.endpoint);
        return true;
      }
      if (goneStatuses.has(status)) {
        await this.store.removeByEndpoint(subscription.endpoint);
        log.debug({ ...context, status }, 'web push subscription gone; removed');
      } else {
        log.warn({ ...context, status }, 'web push refused by the push service; subscription kept');
      }
    } catch (err) {
      log.warn({ ...context, err }, 'web push failed; subscription kept');
    }
    return false;
  }

  /** Queues a renewal of `endpoint`; the endpoints taken until it runs are renewed with it. */
  private renewLater(endpoint: string): void {
    const first = this.taken.size === 0;
    this.taken.add(endpoint);
    if (!first) return;
    const queued = this.queue.push(async () => {
      const endpoints = [...this.taken];
      this.taken.clear();
      try {
        await this.store.touch(endpoints, Math.floor(Date.now() / 1000));
      } catch (err) {
        this.options.log.warn({ err, subscriptions: endpoints.length }, 'web push subscriptions not renewed');
      }
    });
    if (!queued) this.taken.clear(); // a full queue dropped it: renewed at a later push instead
  }
}
