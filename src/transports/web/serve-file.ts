import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { acceptedEncodings } from './accept-encoding.js';
import type { WebFile } from './site.js';

/** A year, the longest max-age caches honour (RFC 9111 suggests no more). */
const immutableCache = 'public, max-age=31536000, immutable';

/**
 * Answers with a web file: hashed assets may be cached for good; pages and unhashed files
 * are revalidated each time (`no-cache`, answered 304 when the ETag still matches), so a
 * new build shows at the next load. The body goes in the best pre-compressed form the
 * client accepts. `extraHeaders` go with both answers (a page's Content-Security-Policy);
 * `status` is another than 200 for an error page (the docs' 404).
 */
export function serveWebFile(ex: Exchange, req: RequestInfo, file: WebFile, extraHeaders: readonly [string, string][] = [], status = 200): void {
  const headers: [string, string][] = [
    ['Cache-Control', file.immutable ? immutableCache : 'no-cache'],
    ['ETag', file.etag],
    ['Vary', 'Accept-Encoding'],
    ...extraHeaders,
  ];
  if (status === 200 && req.headers.get('if-none-match') === file.etag) return ex.send(304, '', file.type, headers);
  const encoding = acceptedEncodings(req.headers.get('accept-encoding')).find((coding) => file[coding] !== undefined);
  if (encoding) headers.push(['Content-Encoding', encoding]);
  ex.send(status, encoding ? (file[encoding] as Buffer) : file.body, file.type, headers);
}
