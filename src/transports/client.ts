import type { User } from '../model/access.js';
import { userKeyPrefix, type Visitor } from '../visitors/visitors.js';
import type { ServerContext } from './context.js';
import type { RequestInfo } from './http/request.js';

/** The visitor a request is, without charging it (the request-rate guard charges it). */
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

function forwarded(ctx: ServerContext, req: RequestInfo): string | undefined {
  return ctx.config.behindProxy ? req.headers.get(ctx.config.proxyForwardedHeader.toLowerCase()) : undefined;
}
