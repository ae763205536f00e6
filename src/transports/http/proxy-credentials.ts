import type { Credentials } from '../../auth/access-control.js';
import type { ServerContext } from '../context.js';
import { credentials } from './credentials.js';
import type { RequestInfo } from './request.js';

/**
 * Who a request says it is: the user auth-user-header names when the direct peer is one of
 * proxy-trusted-hosts, with auth-groups-header's comma-separated groups (an absent header:
 * none); otherwise, or when the header is absent or empty, its own credentials
 * (credentials.ts). From any other peer the header is ignored, so a client cannot name itself.
 */
export function requestCredentials(ctx: ServerContext, req: RequestInfo): Credentials {
  const proxy = ctx.config.proxyAuth;
  if (!proxy || !ctx.visitors.trusts(req.remoteAddress)) return credentials(req);
  const username = req.headers.get(proxy.userHeader.toLowerCase())?.trim();
  if (!username) return credentials(req);
  if (!proxy.groupsHeader) return { kind: 'proxy', username };
  const groups = (req.headers.get(proxy.groupsHeader.toLowerCase()) ?? '')
    .split(',')
    .map((g) => g.trim())
    .filter((g) => g !== '');
  return { kind: 'proxy', username, groups };
}
