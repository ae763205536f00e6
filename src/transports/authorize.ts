import type { Permission } from '../model/access.js';
import type { ServerContext } from './context.js';
import { credentials } from './http/credentials.js';
import type { RequestInfo } from './http/request.js';

/**
 * 40101 for credentials that do not check out, 40301 unless the request may `want` every
 * topic. Without an auth-file every topic is open and nothing is read.
 */
export async function authorize(ctx: ServerContext, req: RequestInfo, topics: readonly string[], want: keyof Permission): Promise<void> {
  if (!ctx.access) return;
  const user = await ctx.access.authenticate(credentials(req), req.remoteAddress);
  await ctx.access.authorize(user, topics, want);
}
