import type { HttpRequest, HttpResponse } from './uws.js';

/**
 * What Tocsin needs of a request, copied out of uWS's HttpRequest, which is only valid
 * until the handler returns (every later step runs asynchronously).
 */
export interface RequestInfo {
  /** Upper-case method. */
  method: string;
  path: string;
  /** Header names lower-case, as uWS gives them. */
  headers: ReadonlyMap<string, string>;
  /** Query parameters by name as sent; ntfy looks up only lower-case names (`?Title=` is no title). */
  query: ReadonlyMap<string, string>;
  remoteAddress: string;
  /**
   * Who and what the request turned out to be about, noted as the handlers learn it, for
   * the log line of a refusal (http/rejections.ts). Copies of the request (a JSON publish
   * rewritten as headers) share it.
   */
  seen: Seen;
}

export interface Seen {
  /** The authenticated user's name. */
  user?: string;
  topics?: readonly string[];
}

export function snapshot(req: HttpRequest, res: HttpResponse): RequestInfo {
  const headers = new Map<string, string>();
  req.forEach((name, value) => {
    const earlier = headers.get(name);
    headers.set(name, earlier === undefined ? value : `${earlier}, ${value}`);
  });
  return {
    method: req.getMethod().toUpperCase(),
    path: req.getUrl(),
    headers,
    query: parseQuery(req.getQuery() ?? ''),
    remoteAddress: Buffer.from(res.getRemoteAddressAsText()).toString('latin1'), // an address is ASCII
    seen: {},
  };
}

export function parseQuery(raw: string): Map<string, string> {
  const query = new Map<string, string>();
  if (raw === '') return query; // most publishes carry none: skip URLSearchParams
  for (const [name, value] of new URLSearchParams(raw)) {
    if (!query.has(name)) query.set(name, value);
  }
  return query;
}
