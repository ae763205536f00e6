import type { BlockList } from 'node:net';
import type { Config } from '../config/schema.js';
import type { User } from '../model/access.js';
import { LruMap } from '../model/lru-map.js';
import { clientAddress, contains, networks, visitorKey } from './address.js';
import { FirstVisits } from './first-visits.js';
import { Payers } from './payers.js';
import { dayMs, Visitor, type Holder, type VisitorLimits } from './visitor.js';
import type { VisitorSpend } from '../store/spend-ledger.js';

export { Visitor, type Spend, type VisitorLimits } from './visitor.js';

/** The nodes a registry shares its visitors' limits with (cluster-limits.ts). */
export interface Cluster {
  /** `visitor` started a tally of what it spends here. */
  report(visitor: Visitor): void;
  /** Subscriptions `key` holds on the other nodes. */
  elsewhere(key: string): number;
}

/** ntfy's visitorExpungeAfter: a visitor unseen this long is forgotten. */
const forgetAfterMs = dayMs;

/**
 * Visitors held with no subscription before the least recently seen are evicted: at
 * ~550 bytes each (heap after GC with 100,000 held), ~55 MB.
 */
export const defaultMaxVisitors = 100_000;

/** First visits remembered (see FirstVisits): 320 KB of typed arrays. */
export const defaultFirstVisits = 65_536;

/** A user on a tier is the visitor `user:NAME`, wherever they come from. */
export const userKeyPrefix = 'user:';

/** ntfy's configBasedVisitorLimits: visitor-message-daily-limit, or one message per request refill over a day. */
export function dailyMessageLimit(c: Config): number {
  return c.visitorMessageDailyLimit > 0 ? c.visitorMessageDailyLimit : Math.floor(dayMs / c.visitorRequestLimitReplenishMs);
}

export interface VisitorsOptions {
  /** Visitors without subscriptions held before the least recently seen go (batches of an eighth). */
  maxVisitors?: number;
  /** Slots for first visits (a power of two). */
  firstVisits?: number;
  now?: () => number;
  /** Whether a topic has subscribers: their UnifiedPush bills are kept (see Payers). */
  isLive?: (topic: string) => boolean;
}

/**
 * Every visitor seen recently, by key (ntfy's visitor map), at O(1) per request whatever
 * the spread of addresses. Three tables:
 * - `firstVisits`: visitors seen once, as numbers (see FirstVisits). A first request gets
 *   a Visitor object that lives only as long as that request; the second makes it a
 *   regular visitor in `idle`, charged what the first spent. So a flood of one-request
 *   addresses allocates nothing that outlives its requests and never pushes a returning
 *   visitor out of `idle`.
 * - `held`: visitors holding subscriptions. Never evicted — their count is what limits
 *   subscriptions, and a fresh visitor for the same address would grant the limit again.
 *   They number at most the open subscriptions (each is an open connection).
 * - `idle`: the others, least recently seen evicted first in batches past `maxVisitors`,
 *   and dropped after a day unseen. An evicted visitor's request, message and bandwidth
 *   counts start afresh when it returns; it was evicted only because at least 5/8 of
 *   `maxVisitors` other visitors, each with a fresh allowance, were seen after it last was
 *   (see LruMap), so an eviction gives an address no more than each address of the flood
 *   that caused it already has. Attachment storage is counted by the attachment store per owner, not
 *   here, so it survives eviction.
 */
export class Visitors implements Holder {
  private readonly firstVisits: FirstVisits;
  private readonly idle: LruMap<string, Visitor>;
  private readonly held = new Map<string, Visitor>();
  private readonly payers: Payers;
  private readonly trusted: BlockList;
  private readonly exempt: BlockList;
  private readonly now: () => number;
  private cluster: Cluster | undefined;

  constructor(
    private readonly config: Config,
    options: VisitorsOptions = {},
  ) {
    this.now = options.now ?? Date.now;
    this.firstVisits = new FirstVisits(options.firstVisits ?? defaultFirstVisits);
    this.idle = new LruMap(options.maxVisitors ?? defaultMaxVisitors, { now: this.now });
    this.payers = new Payers(2 * Math.max(1, config.globalTopicLimit), options.isLive ?? (() => false), this.now);
    this.trusted = networks('proxy-trusted-hosts', config.proxyTrustedHosts);
    this.exempt = networks('visitor-request-limit-exempt-hosts', config.visitorRequestLimitExemptHosts);
  }

  /** The client's address: the peer's, or behind a proxy the forwarded one (`forwarded` is the header's value). */
  address(peer: string, forwarded: string | undefined): string {
    return forwarded === undefined ? peer : clientAddress(peer, forwarded, this.trusted);
  }

  /** Whether the request's direct peer is one of proxy-trusted-hosts (only they may name a user in auth-user-header). */
  trusts(peer: string): boolean {
    return contains(this.trusted, peer);
  }

  /** The visitor behind a request: the user when on a tier (their limits follow them), else the address. */
  of(peer: string, forwarded: string | undefined, user: User | undefined): Visitor {
    const address = this.address(peer, forwarded);
    const key = user?.tier ? `${userKeyPrefix}${user.name}` : visitorKey(address, this.config.visitorPrefixBitsIpv4, this.config.visitorPrefixBitsIpv6);
    const limits = this.limits(user);
    const visitor = this.find(key);
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
    return this.find(key) ?? this.add(key, key.split('/')[0] as string, this.limits(user));
  }

  private find(key: string): Visitor | undefined {
    return this.held.get(key) ?? this.idle.get(key);
  }

  /** A visitor not held: its first visit, or its second, which makes it a regular. */
  private add(key: string, address: string, limits: VisitorLimits): Visitor {
    const now = this.now();
    const spent = this.firstVisits.arrive(key);
    if (spent !== 0) return this.regular(key, address, limits, spent, now);
    const visitor = new Visitor(key, contains(this.exempt, address), limits, now, this);
    visitor.firstVisit = true;
    return visitor;
  }

  /** A visitor held from now on in `idle`, charged what its first visit (if remembered) spent. */
  private regular(key: string, address: string, limits: VisitorLimits, spent: number, now: number): Visitor {
    const visitor = new Visitor(key, contains(this.exempt, address), limits, now, this);
    if (spent !== 0) visitor.recall(spent, now);
    this.idle.set(key, visitor);
    return visitor;
  }

  /**
   * Its first subscription opened: out of eviction's reach. A visitor evicted while one of
   * its requests was in flight comes back here (or, if a newer one for its key holds
   * subscriptions already, keeps counting on its own until it closes).
   */
  hold(visitor: Visitor): void {
    if (this.idle.peek(visitor.key) === visitor) this.idle.delete(visitor.key);
    this.settle(visitor);
    if (!this.held.has(visitor.key)) this.held.set(visitor.key, visitor);
  }

  /** Its last subscription closed: evictable again, as the most recently seen. */
  release(visitor: Visitor): void {
    if (this.held.get(visitor.key) !== visitor) return;
    this.held.delete(visitor.key);
    if (!this.idle.has(visitor.key)) this.idle.set(visitor.key, visitor);
  }

  /**
   * A first visit spent `what`: noted for its second; or counted by the regular visitor a
   * concurrent request of the same key made meanwhile.
   */
  spent(visitor: Visitor, what: number): void {
    const regular = this.find(visitor.key);
    if (regular && regular !== visitor) regular.recall(what, this.now());
    else this.firstVisits.spend(visitor.key, what);
  }

  /** A first visit moved attachment bytes or placed a call: a regular visitor from now on (unless its key has one already). */
  keep(visitor: Visitor): void {
    this.settle(visitor);
    if (!this.find(visitor.key)) this.idle.set(visitor.key, visitor);
  }

  /** No longer a first visit: it is held as an object. */
  private settle(visitor: Visitor): void {
    if (!visitor.firstVisit) return;
    visitor.firstVisit = false;
    this.firstVisits.forget(visitor.key);
  }

  /** From now on, tells `cluster` what visitors spend and asks it what they hold elsewhere. */
  share(cluster: Cluster): void {
    this.cluster = cluster;
  }

  get clustered(): boolean {
    return this.cluster !== undefined;
  }

  report(visitor: Visitor): void {
    this.cluster?.report(visitor);
  }

  elsewhere(key: string): number {
    return this.cluster?.elsewhere(key) ?? 0;
  }

  /**
   * Charges `key` what it spent on another node. A key not seen here yet becomes a regular
   * visitor: it has made requests elsewhere, so its next one here is not a first visit.
   */
  charge(key: string, spend: Omit<VisitorSpend, 'key'>): void {
    const now = this.now();
    const visitor = this.find(key) ?? this.regular(key, key.split('/')[0] as string, this.limits(undefined), this.firstVisits.forget(key), now);
    visitor.charge(spend, now);
  }

  /** Visitors holding subscriptions here (a full report to the other nodes). */
  holding(): IterableIterator<Visitor> {
    return this.held.values();
  }

  /** Bills publishes to `topic` to `subscriber` from now on (the last subscriber wins, as ntfy). */
  billTo(topic: string, subscriber: Visitor): void {
    this.payers.billTo(topic, subscriber);
  }

  /** Who pays for publishes to `topic`: its UnifiedPush subscriber, while subscribed or seen within a day. */
  payer(topic: string, now: number): Visitor | undefined {
    return this.payers.payer(topic, now);
  }

  /** Housekeeping: forgets visitors and bills unseen for a day, visiting only those (not every visitor). */
  forget(now: number): void {
    this.payers.forget(now);
    const stale = (visitor: Visitor): boolean => now - visitor.seenAt > forgetAfterMs;
    this.idle.expire(now - forgetAfterMs, stale);
  }

  get size(): number {
    return this.firstVisits.size + this.idle.size + this.held.size;
  }

  /** Entries touched by evictions and expiry (for tests: it must not grow with the table). */
  get work(): number {
    return this.idle.work + this.payers.work;
  }

  /** Visitors evicted to stay within the bounds so far (tocsin_visitor_evictions_total). */
  get evicted(): number {
    return this.firstVisits.replaced + this.idle.evicted;
  }

  get billed(): number {
    return this.payers.size;
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
        messageExpiryMs: undefined,
        bandwidth: c.visitorAttachmentDailyBandwidthLimit,
        emailBurst: c.visitorEmailLimitBurst,
        emailReplenishMs: c.visitorEmailLimitReplenishMs,
        calls: 0,
        topicCreationBurst: c.topicCreationLimit.burst,
        topicCreationReplenishMs: c.topicCreationLimit.replenishMs,
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
      // ntfy's MessageExpiryDuration; a tier of 0 would expire its messages as they are stored.
      messageExpiryMs: tier.messageExpiryDuration > 0 ? tier.messageExpiryDuration * 1000 : undefined,
      bandwidth: tier.attachmentBandwidthLimit,
      // ntfy's tierBasedVisitorLimits: a fifth of the day's e-mails at once, within [visitor-email-limit-burst, 150].
      emailBurst: Math.min(Math.max(Math.floor(tier.emailLimit * 0.2), c.visitorEmailLimitBurst), 150),
      emailReplenishMs: dayMs / tier.emailLimit,
      calls: tier.callLimit,
      topicCreationBurst: c.topicCreationLimit.burst,
      topicCreationReplenishMs: c.topicCreationLimit.replenishMs,
    };
  }
}
