import type { BlockList } from 'node:net';
import type { Config } from '../config/schema.js';
import type { User } from '../model/access.js';
import { errors } from '../model/errors.js';
import { clientAddress, contains, networks, visitorKey } from './address.js';
import { Bucket } from './bucket.js';

const dayMs = 86_400_000;
/** ntfy's visitorExpungeAfter: a visitor unseen this long is forgotten. */
const forgetAfterMs = dayMs;

/** A user on a tier is the visitor `user:NAME`, wherever they come from. */
export const userKeyPrefix = 'user:';

/** ntfy's configBasedVisitorLimits: visitor-message-daily-limit, or one message per request refill over a day. */
export function dailyMessageLimit(c: Config): number {
  return c.visitorMessageDailyLimit > 0 ? c.visitorMessageDailyLimit : Math.floor(dayMs / c.visitorRequestLimitReplenishMs);
}

/** How much a visitor may do: a tier's limits for a user on one, else server.yml's. */
export interface VisitorLimits {
  requestBurst: number;
  requestReplenishMs: number;
  /** Messages per day. */
  messages: number;
  subscriptions: number;
  attachmentFileSize: number;
  attachmentTotalSize: number;
  attachmentExpirySeconds: number;
  /** Attachment bytes uploaded, downloaded or replayed per day. */
  bandwidth: number;
}

/**
 * One visitor (an address, its network, or a user on a tier): a token bucket of requests,
 * one of bandwidth bytes, the day's message count and the subscriptions it holds open.
 * Every check is O(1).
 */
export class Visitor {
  private readonly requests: Bucket;
  /** ntfy's bytes limiter: a day's bandwidth at once, refilled evenly over the day. */
  private readonly bytes: Bucket;
  private day: number;
  private messageCount = 0;
  subscriptions = 0;
  /** Its own last request (not one billed to it by a UnifiedPush publisher). */
  seenAt: number;

  constructor(
    readonly key: string,
    /** visitor-request-limit-exempt-hosts: never limited. */
    readonly exempt: boolean,
    public limits: VisitorLimits,
    now: number,
  ) {
    this.requests = new Bucket(limits.requestBurst, now);
    this.bytes = new Bucket(limits.bandwidth, now);
    this.day = Math.floor(now / dayMs);
    this.seenAt = now;
  }

  /** 42901 once the request bucket is empty. */
  request(now: number): void {
    if (this.exempt) return;
    const { requestBurst, requestReplenishMs } = this.limits;
    if (!this.requests.take(1, now, requestBurst, requestReplenishMs)) throw errors.tooManyRequests;
  }

  /** Spends `bytes` of the day's bandwidth; false, spending none, when fewer are left (exempt hosts too, as ntfy). */
  transfer(bytes: number, now: number): boolean {
    return this.bytes.take(bytes, now, this.limits.bandwidth, dayMs / this.limits.bandwidth);
  }

  /** The bandwidth bytes left now. */
  bandwidthLeft(now: number): number {
    return Math.floor(this.bytes.left(now, this.limits.bandwidth, dayMs / this.limits.bandwidth));
  }

  /** 42908 once the day's messages are used up (days end at midnight UTC, as ntfy's default). */
  message(now: number): void {
    this.rollDay(now);
    if (!this.exempt && this.messageCount >= this.limits.messages) throw errors.tooManyMessages;
    this.messageCount++;
  }

  messages(now: number): number {
    this.rollDay(now);
    return this.messageCount;
  }

  /** 42903 when the visitor holds visitor-subscription-limit subscriptions already. */
  subscribe(): void {
    if (!this.exempt && this.subscriptions >= this.limits.subscriptions) throw errors.tooManySubscriptions;
    this.subscriptions++;
  }

  unsubscribe(): void {
    this.subscriptions = Math.max(0, this.subscriptions - 1);
  }

  private rollDay(now: number): void {
    const day = Math.floor(now / dayMs);
    if (day !== this.day) {
      this.day = day;
      this.messageCount = 0;
    }
  }
}

/**
 * Every visitor seen in the last day, by key (ntfy's visitor map). A visitor holding no
 * subscription is forgotten after a day unseen, and the oldest such ones go first when
 * more than `maxVisitors` are held, so a flood of addresses cannot grow memory unbounded.
 */
export class Visitors {
  private readonly byKey = new Map<string, Visitor>();
  /** visitor-subscriber-rate-limiting: UnifiedPush topics and the subscriber their publishes are billed to. */
  private readonly payers = new Map<string, Visitor>();
  private readonly trusted: BlockList;
  private readonly exempt: BlockList;

  constructor(
    private readonly config: Config,
    private readonly maxVisitors = 100_000,
    private readonly now: () => number = Date.now,
  ) {
    this.trusted = networks('proxy-trusted-hosts', config.proxyTrustedHosts);
    this.exempt = networks('visitor-request-limit-exempt-hosts', config.visitorRequestLimitExemptHosts);
  }

  /** The client's address: the peer's, or behind a proxy the forwarded one (`forwarded` is the header's value). */
  address(peer: string, forwarded: string | undefined): string {
    return forwarded === undefined ? peer : clientAddress(peer, forwarded, this.trusted);
  }

  /** The visitor behind a request: the user when on a tier (their limits follow them), else the address. */
  of(peer: string, forwarded: string | undefined, user: User | undefined): Visitor {
    const address = this.address(peer, forwarded);
    const key = user?.tier ? `${userKeyPrefix}${user.name}` : visitorKey(address, this.config.visitorPrefixBitsIpv4, this.config.visitorPrefixBitsIpv6);
    const limits = this.limits(user);
    const visitor = this.byKey.get(key);
    if (!visitor) return this.add(key, address, limits);
    if (user?.tier) visitor.limits = limits; // follows changes of the tier
    return visitor;
  }

  /**
   * The visitor an upload is billed to, by the key it was stored under: downloads draw on
   * the uploader's bandwidth, as ntfy (one uploader cannot lend a file to a thousand
   * downloaders for free). `user` is the key's user, for a tier's limits.
   */
  owner(key: string, user: User | undefined): Visitor {
    return this.byKey.get(key) ?? this.add(key, key.split('/')[0] as string, this.limits(user));
  }

  private add(key: string, address: string, limits: VisitorLimits): Visitor {
    if (this.byKey.size >= this.maxVisitors) this.forget(this.now());
    const visitor = new Visitor(key, contains(this.exempt, address), limits, this.now());
    this.byKey.set(key, visitor);
    return visitor;
  }

  /** Bills publishes to `topic` to `subscriber` from now on (the last subscriber wins, as ntfy). */
  billTo(topic: string, subscriber: Visitor): void {
    this.payers.set(topic, subscriber);
  }

  /** Who pays for publishes to `topic`: its UnifiedPush subscriber, while subscribed or seen within a day. */
  payer(topic: string, now: number): Visitor | undefined {
    const payer = this.payers.get(topic);
    if (payer && payer.subscriptions === 0 && now - payer.seenAt > forgetAfterMs) {
      this.payers.delete(topic);
      return undefined;
    }
    return payer;
  }

  /** Housekeeping: forgets visitors unseen for a day that hold no subscription. */
  forget(now: number, keep = this.maxVisitors - 1): void {
    for (const topic of this.payers.keys()) this.payer(topic, now);
    for (const [key, visitor] of this.byKey) {
      const idle = visitor.subscriptions === 0;
      if (idle && (now - visitor.seenAt > forgetAfterMs || this.byKey.size > keep)) this.byKey.delete(key);
    }
  }

  get size(): number {
    return this.byKey.size;
  }

  private configLimits?: VisitorLimits;

  private limits(user: User | undefined): VisitorLimits {
    const tier = user?.tier;
    const c = this.config;
    if (!tier) {
      this.configLimits ??= {
        requestBurst: c.visitorRequestLimitBurst,
        requestReplenishMs: c.visitorRequestLimitReplenishMs,
        messages: dailyMessageLimit(c),
        subscriptions: c.visitorSubscriptionLimit,
        attachmentFileSize: c.attachmentFileSizeLimit,
        attachmentTotalSize: c.visitorAttachmentTotalSizeLimit,
        attachmentExpirySeconds: Math.floor(c.attachmentExpiryDurationMs / 1000),
        bandwidth: c.visitorAttachmentDailyBandwidthLimit,
      };
      return this.configLimits;
    }
    // ntfy's tierBasedVisitorLimits: requests scale with the tier's daily messages.
    return {
      requestBurst: Math.min(Math.max(Math.floor(tier.messageLimit * 0.05), c.visitorRequestLimitBurst), 1000),
      requestReplenishMs: Math.min(c.visitorRequestLimitReplenishMs, dayMs / Math.max(1, tier.messageLimit * 2)),
      messages: tier.messageLimit,
      subscriptions: c.visitorSubscriptionLimit,
      attachmentFileSize: tier.attachmentFileSizeLimit,
      attachmentTotalSize: tier.attachmentTotalSizeLimit,
      attachmentExpirySeconds: tier.attachmentExpiryDuration,
      bandwidth: tier.attachmentBandwidthLimit,
    };
  }
}
