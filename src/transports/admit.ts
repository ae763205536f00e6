import type { Permission, User } from '../model/access.js';
import type { Visitor } from '../visitors/visitors.js';
import type { ServerContext } from './context.js';
import { credentials } from './http/credentials.js';
import type { RequestInfo } from './http/request.js';

/**
 * The gate of every publish and subscribe request, in ntfy's order: who it is (40101,
 * 42909), one request from the visitor's bucket (42901), then whether it may `want` every
 * topic (40301). Without an auth-file every topic is open and no credentials are read.
 */
export async function admit(ctx: ServerContext, req: RequestInfo, topics: readonly string[], want: keyof Permission): Promise<Visitor> {
  if (!ctx.access) return enter(ctx, req, undefined);
  const user = await ctx.access.authenticate(credentials(req), clientAddressOf(ctx, req));
  const visitor = enter(ctx, req, user);
  await ctx.access.authorize(user, topics, want);
  return visitor;
}

/** The request's visitor, charged one request (42901); synchronous, for the WebSocket upgrade. */
export function enter(ctx: ServerContext, req: RequestInfo, user: User | undefined): Visitor {
  const visitor = ctx.visitors.of(req.remoteAddress, forwarded(ctx, req), user);
  visitor.request(Date.now());
  return visitor;
}

/** The visitor a request is, without charging it (the account API reports on it). */
export function visitorOf(ctx: ServerContext, req: RequestInfo, user: User | undefined): Visitor {
  return ctx.visitors.of(req.remoteAddress, forwarded(ctx, req), user);
}

/** The client's address, through a trusted proxy when behind-proxy is set. */
export function clientAddressOf(ctx: ServerContext, req: RequestInfo): string {
  return ctx.visitors.address(req.remoteAddress, forwarded(ctx, req));
}

function forwarded(ctx: ServerContext, req: RequestInfo): string | undefined {
  return ctx.config.behindProxy ? req.headers.get(ctx.config.proxyForwardedHeader.toLowerCase()) : undefined;
}
