import type { Permission, User } from '../model/access.js';
import { userKeyPrefix, type Visitor } from '../visitors/visitors.js';
import type { ServerContext } from './context.js';
import { credentials } from './http/credentials.js';
import type { RequestInfo } from './http/request.js';

/** Who a request is, and the visitor its requests and messages are billed to. */
export interface Admitted {
  user: User | undefined;
  visitor: Visitor;
}

/** UnifiedPush topics as ntfy tells them: `up` and 12 more characters. */
const unifiedPushTopic = /^up[-_A-Za-z0-9]{12}$/;

/**
 * The gate of every publish and subscribe request, in ntfy's order: who it is (40101,
 * 42909), one request from the bucket (42901), then whether it may `want` every topic
 * (40301). A publish to a UnifiedPush topic with a billed subscriber draws on the
 * subscriber's bucket. Without an auth-file every topic is open and no credentials are read.
 */
export async function admit(ctx: ServerContext, req: RequestInfo, topics: readonly string[], want: keyof Permission): Promise<Admitted> {
  req.seen.topics = topics;
  const user = ctx.access ? await ctx.access.authenticate(credentials(req), clientAddressOf(ctx, req)) : undefined;
  req.seen.user = user?.name;
  const own = visitorOf(ctx, req, user);
  const visitor = (want === 'write' && topics.length === 1 && ctx.visitors.payer(topics[0] as string, Date.now())) || own;
  charge(own, visitor);
  if (ctx.access) await ctx.access.authorize(user, topics, want);
  return { user, visitor };
}

/** The request's visitor, charged one request (42901); synchronous, for the WebSocket upgrade. */
export function enter(ctx: ServerContext, req: RequestInfo): Visitor {
  const visitor = visitorOf(ctx, req, undefined);
  charge(visitor, visitor);
  return visitor;
}

/**
 * visitor-subscriber-rate-limiting: a subscriber takes over the bill of the UnifiedPush
 * topics it may publish to itself — with an auth-file, those it reserved or, unreserved,
 * may write to (ntfy's maybeSetRateVisitors).
 */
export async function billSubscriber(ctx: ServerContext, topics: readonly string[], { user, visitor }: Admitted): Promise<void> {
  if (!ctx.config.visitorSubscriberRateLimiting) return;
  for (const topic of topics.filter((t) => unifiedPushTopic.test(t))) {
    if (ctx.access && !(await mayBill(ctx, topic, user))) continue;
    ctx.visitors.billTo(topic, visitor);
  }
}

/** The visitor a request is, without charging it (the account API reports on it). */
export function visitorOf(ctx: ServerContext, req: RequestInfo, user: User | undefined): Visitor {
  return ctx.visitors.of(req.remoteAddress, forwarded(ctx, req), user);
}

/**
 * Whose attachments an upload counts among (visitor-attachment-total-size-limit, the
 * `attachment_total_size` of GET /v1/account): a logged-in user's own, wherever they
 * upload from; an anonymous visitor's, its address. ntfy's visitor.Info sums
 * AttachmentBytesUsedByUser or, without a user, AttachmentBytesUsedBySender.
 */
export function attachmentOwner(user: User | undefined, visitor: Visitor): string {
  return user ? `${userKeyPrefix}${user.name}` : visitor.key;
}

/** The client's address, through a trusted proxy when behind-proxy is set. */
export function clientAddressOf(ctx: ServerContext, req: RequestInfo): string {
  return ctx.visitors.address(req.remoteAddress, forwarded(ctx, req));
}

/** The request counts against `billed`; `own` is seen too, so it is not forgotten while active. */
function charge(own: Visitor, billed: Visitor): void {
  const now = Date.now();
  own.seenAt = now;
  billed.request(now);
}

async function mayBill(ctx: ServerContext, topic: string, user: User | undefined): Promise<boolean> {
  const access = ctx.access;
  if (!access) return true;
  const owner = await access.store.reservationOwner(topic);
  if (owner !== undefined) return owner === user?.name;
  return access.authorize(user, [topic], 'write').then(
    () => true,
    () => false,
  );
}

function forwarded(ctx: ServerContext, req: RequestInfo): string | undefined {
  return ctx.config.behindProxy ? req.headers.get(ctx.config.proxyForwardedHeader.toLowerCase()) : undefined;
}
