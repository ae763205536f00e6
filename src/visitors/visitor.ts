import { errors } from '../model/errors.js';
import type { VisitorSpend } from '../store/spend-ledger.js';
import { debit, takeTokens, tokensLeft, type BucketState } from './bucket.js';
import { spentEmail, spentMessage, spentRequest } from './first-visits.js';

export const dayMs = 86_400_000;

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
  /** How long the visitor's messages stay cached where no topic-retention entry says: a tier's, else undefined for cache-duration. */
  messageExpiryMs: number | undefined;
  /** Attachment bytes uploaded, downloaded or replayed per day. */
  bandwidth: number;
  /** E-mails forwarded at once, then one more per `emailReplenishMs`. */
  emailBurst: number;
  emailReplenishMs: number;
  /** Phone calls per day (a tier's; 0 without one, as ntfy: numbers are verified per account). */
  calls: number;
  /** New topics at once (0: no limit), then one more per `topicCreationReplenishMs` (ntfy 2.23). */
  topicCreationBurst: number;
  topicCreationReplenishMs: number;
}

/** What a visitor spent here that the other nodes have not been told (see cluster-limits.ts). */
export type Spend = Required<Omit<VisitorSpend, 'key'>>;

/**
 * Told when a visitor starts and stops holding subscriptions (its registry must not evict
 * it meanwhile), and of a first visit (its registry keeps it as numbers, see FirstVisits)
 * what it spent, or that it must be kept as an object (it moved attachment bytes or placed a call). When
 * nodes share limits (`clustered`), told of each visitor that starts a tally of spending
 * to report, and asked what its key holds on the other nodes.
 */
export interface Holder {
  hold(visitor: Visitor): void;
  release(visitor: Visitor): void;
  spent(visitor: Visitor, what: number): void;
  keep(visitor: Visitor): void;
  readonly clustered: boolean;
  report(visitor: Visitor): void;
  elsewhere(key: string): number;
}

/**
 * One visitor (an address, its network, or a user on a tier): a token bucket of requests,
 * one of bandwidth bytes, the day's message count and the subscriptions it holds open.
 * Every check is O(1).
 */
export class Visitor implements BucketState {
  /** The request bucket, held in the visitor's own fields (see bucket.ts). */
  tokens: number;
  at: number;
  /**
   * ntfy's bytes limiter: a day's bandwidth at once, refilled evenly over the day. Made
   * at first use (a full bucket made later is the same as one made now and refilled):
   * most visitors never move a file, and in an address flood every object per visitor
   * is garbage collected work.
   */
  private bytes: BucketState | undefined;
  /** Made at the first X-Email, as `bytes`: most visitors never send one. */
  private mails: BucketState | undefined;
  /** Made at the first topic it brings into being, as `bytes`. */
  private newTopics: BucketState | undefined;
  private day: number;
  private messageCount = 0;
  private emailCount = 0;
  private callCount = 0;
  subscriptions = 0;
  /** Its own last request (not one billed to it by a UnifiedPush publisher). */
  seenAt: number;
  /** Its first request, which its registry does not hold as an object (see FirstVisits). */
  firstVisit = false;
  /**
   * What it spent here since its registry last reported it to the other nodes; undefined
   * when there is nothing to report, or no other node. A first visit is never reported:
   * so an address flood costs the cluster nothing, and another node that sees the address
   * next may grant it one request more than one node would.
   */
  unreported: Spend | undefined;

  constructor(
    readonly key: string,
    /** visitor-request-limit-exempt-hosts: never limited. */
    readonly exempt: boolean,
    public limits: VisitorLimits,
    now: number,
    private readonly holder?: Holder,
  ) {
    this.tokens = limits.requestBurst;
    this.at = now;
    this.day = Math.floor(now / dayMs);
    this.seenAt = now;
  }

  /** 42901 once the request bucket is empty. */
  request(now: number): void {
    if (this.exempt) return;
    const { requestBurst, requestReplenishMs } = this.limits;
    if (!takeTokens(this, 1, now, requestBurst, requestReplenishMs)) throw errors.tooManyRequests;
    const tally = this.tally();
    if (tally) tally.requests++;
  }

  /** Spends `bytes` of the day's bandwidth; false, spending none, when fewer are left (exempt hosts too, as ntfy). */
  transfer(bytes: number, now: number): boolean {
    if (this.firstVisit) this.holder?.keep(this); // bytes are not carried as numbers: held from now on
    if (!takeTokens(this.bandwidth(now), bytes, now, this.limits.bandwidth, dayMs / this.limits.bandwidth)) return false;
    const tally = this.tally();
    if (tally) tally.bytes += bytes;
    return true;
  }

  /**
   * Takes up to `bytes` of the day's bandwidth (what is left, when less) before they are
   * loaded, and answers how many it took; `settle` gives back what was not sent. Between
   * the two the bytes are nobody else's: concurrent requests cannot together load more
   * than is left. Reported to the other nodes only once settled.
   */
  reserve(bytes: number, now: number): number {
    if (this.firstVisit) this.holder?.keep(this); // as transfer
    const state = this.bandwidth(now);
    const taken = Math.max(0, Math.min(bytes, Math.floor(tokensLeft(state, now, this.limits.bandwidth, dayMs / this.limits.bandwidth))));
    state.tokens -= taken;
    return taken;
  }

  /** Of `reserved` bytes taken by `reserve`, `spent` were sent: the rest is given back. */
  settle(reserved: number, spent: number, now: number): void {
    const state = this.bandwidth(now);
    state.tokens = Math.min(this.limits.bandwidth, tokensLeft(state, now, this.limits.bandwidth, dayMs / this.limits.bandwidth) + reserved - spent);
    const tally = spent > 0 ? this.tally() : undefined;
    if (tally) tally.bytes += spent;
  }

  /** The bandwidth bytes left now. */
  bandwidthLeft(now: number): number {
    return Math.floor(tokensLeft(this.bandwidth(now), now, this.limits.bandwidth, dayMs / this.limits.bandwidth));
  }

  private bandwidth(now: number): BucketState {
    return (this.bytes ??= { tokens: this.limits.bandwidth, at: now });
  }

  /**
   * 42911 unless `count` more new topics fit its topic-creation bucket: all or none, as
   * the topic registry admits a request's topics. Exempt hosts are not limited, as for
   * requests. Kept on this node only (not reported to the others): which topics are new is
   * each node's own table. A first visit that creates topics is held as an object from
   * then on: the tokens are not carried as numbers, and a flood of one-request addresses
   * must not get a fresh burst each.
   */
  createTopics(count: number, now: number): void {
    const { topicCreationBurst: burst, topicCreationReplenishMs: replenishMs } = this.limits;
    if (this.exempt || burst === 0 || count === 0) return;
    this.newTopics ??= { tokens: burst, at: now };
    if (!takeTokens(this.newTopics, count, now, burst, replenishMs)) throw errors.tooManyTopicCreations;
    if (this.firstVisit) this.holder?.keep(this);
  }

  /** 42908 once the day's messages are used up (days end at midnight UTC, as ntfy's default). */
  message(now: number): void {
    this.rollDay(now);
    if (!this.exempt && this.messageCount >= this.limits.messages) throw errors.tooManyMessages;
    this.messageCount++;
    if (this.firstVisit) this.holder?.spent(this, spentMessage);
    const tally = this.tally();
    if (tally) tally.messages++;
  }

  /** `count` messages at once (the repeats an alert plans), all or none (42908). */
  messagesAhead(now: number, count: number): void {
    this.rollDay(now);
    if (!this.exempt && this.messageCount + count > this.limits.messages) throw errors.tooManyMessages;
    for (let i = 0; i < count; i++) this.message(now);
  }

  messages(now: number): number {
    this.rollDay(now);
    return this.messageCount;
  }

  /** 42902 once the e-mail bucket is empty; exempt hosts too, as ntfy (they are exempt from requests only). */
  email(now: number): void {
    const { emailBurst, emailReplenishMs } = this.limits;
    if (!takeTokens(this.mailBucket(now), 1, now, emailBurst, emailReplenishMs)) throw errors.tooManyEmails;
    this.rollDay(now);
    this.emailCount++;
    if (this.firstVisit) this.holder?.spent(this, spentEmail);
    const tally = this.tally();
    if (tally) tally.emails++;
  }

  /**
   * 42910 once the day's calls are used up: ntfy's daily fixed limit, not a bucket (exempt
   * hosts too, as ntfy). A first visit is held as an object from then on: calls are not
   * carried as numbers.
   */
  call(now: number): void {
    this.rollDay(now);
    if (this.callCount >= this.limits.calls) throw errors.tooManyCalls;
    this.callCount++;
    if (this.firstVisit) this.holder?.keep(this);
    const tally = this.tally();
    if (tally) tally.calls++;
  }

  /** Calls placed today (GET /v1/account's stats). */
  calls(now: number): number {
    this.rollDay(now);
    return this.callCount;
  }

  /**
   * Counts what its first request spent on another object (`spent`: FirstVisits' bits): the
   * request, a message, an e-mail. Never refuses: that request was answered already.
   */
  recall(spent: number, now: number): void {
    const { requestBurst, requestReplenishMs, emailBurst, emailReplenishMs } = this.limits;
    if (spent & spentRequest && !this.exempt) takeTokens(this, 1, now, requestBurst, requestReplenishMs);
    this.rollDay(now);
    if (spent & spentMessage) this.messageCount++;
    if (spent & spentEmail) {
      takeTokens(this.mailBucket(now), 1, now, emailBurst, emailReplenishMs);
      this.emailCount++;
    }
  }

  /**
   * What it spent on another node: charged whatever is left (see `debit`), so that its
   * spending across the nodes keeps to one allowance, past a burst each node may grant
   * before it hears of the others'.
   */
  charge(spend: Omit<VisitorSpend, 'key'>, now: number): void {
    const { requestBurst, requestReplenishMs, bandwidth, emailBurst, emailReplenishMs } = this.limits;
    if (spend.requests > 0 && !this.exempt) debit(this, spend.requests, now, requestBurst, requestReplenishMs);
    if (spend.bytes > 0) debit(this.bandwidth(now), spend.bytes, now, bandwidth, dayMs / bandwidth);
    if (spend.emails > 0) debit(this.mailBucket(now), spend.emails, now, emailBurst, emailReplenishMs);
    this.rollDay(now);
    this.messageCount += spend.messages;
    this.emailCount += spend.emails;
    this.callCount += spend.calls ?? 0;
  }

  /** Its tally of spending to report to the other nodes, started on first use; undefined when none is kept. */
  private tally(): Spend | undefined {
    if (this.unreported || this.firstVisit || !this.holder?.clustered) return this.unreported;
    this.unreported = { requests: 0, messages: 0, emails: 0, bytes: 0, calls: 0 };
    this.holder.report(this);
    return this.unreported;
  }

  private mailBucket(now: number): BucketState {
    return (this.mails ??= { tokens: this.limits.emailBurst, at: now });
  }

  /** E-mails forwarded today (GET /v1/account's stats). */
  emails(now: number): number {
    this.rollDay(now);
    return this.emailCount;
  }

  /** 42903 when the visitor holds visitor-subscription-limit subscriptions already, here and on the other nodes. */
  subscribe(): void {
    const held = this.subscriptions + (this.holder?.clustered ? this.holder.elsewhere(this.key) : 0);
    if (!this.exempt && held >= this.limits.subscriptions) throw errors.tooManySubscriptions;
    if (++this.subscriptions === 1) this.holder?.hold(this);
    this.tally(); // the count changed: reported with the next tally
  }

  unsubscribe(): void {
    if (this.subscriptions === 0) return;
    if (--this.subscriptions === 0) this.holder?.release(this);
    this.tally();
  }

  private rollDay(now: number): void {
    const day = Math.floor(now / dayMs);
    if (day !== this.day) {
      this.day = day;
      this.messageCount = 0;
      this.emailCount = 0;
      this.callCount = 0;
    }
  }
}

