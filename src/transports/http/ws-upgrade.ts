import { errors } from '../../model/errors.js';
import { onRefusal, type ServerContext } from '../context.js';
import { headersTooLarge } from './header-limit.js';
import { snapshot, type RequestInfo } from './request.js';
import { Exchange } from './respond.js';
import type { HttpRequest, HttpResponse } from './uws.js';

/** What a WebSocket route's upgrade handler works with: the request, its exchange, and the headers `res.upgrade` takes. */
export interface Upgrade {
  info: RequestInfo;
  ex: Exchange;
  /** sec-websocket-key, -protocol and -extensions, read while the request is still valid. */
  headers: [string, string, string];
}

/**
 * The start of an upgrade to a WebSocket route of its own (the dashboard's feed, the nodes'
 * links): the request read, refused with 431 past the header limit as any request
 * (undefined then, the refusal sent).
 */
export function beginUpgrade(ctx: ServerContext, res: HttpResponse, req: HttpRequest): Upgrade | undefined {
  const info = snapshot(req, res);
  const ex = new Exchange(res, onRefusal(ctx, info));
  if (headersTooLarge(info, ctx.config.messageSizeLimit)) {
    ex.error(errors.headerFieldsTooLarge);
    return undefined;
  }
  const headers = ['sec-websocket-key', 'sec-websocket-protocol', 'sec-websocket-extensions'].map((h) => req.getHeader(h)) as Upgrade['headers'];
  return { info, ex, headers };
}
