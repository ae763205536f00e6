import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * POSTs one push (RFC 8030 §5) and resolves with the push service's status. `lookup`, when
 * given, picks the address connected to (see publicLookup). The answer's body is read and
 * dropped, so the connection may serve the next push; with `dropAnswer` the connection is
 * closed at the status line instead, reading none of it (a stranger's server, which could
 * send without end). node:https rather than fetch: fetch takes no per-request lookup
 * without an undici dispatcher of the same version as Node's own. Redirects are not followed.
 */
export function postPush(endpoint: string, headers: Record<string, string>, body: Buffer, options: { lookup: LookupFunction | undefined; timeoutMs: number; dropAnswer?: boolean }): Promise<number> {
  const url = new URL(endpoint);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, { method: 'POST', headers, signal: AbortSignal.timeout(options.timeoutMs), ...(options.lookup && { lookup: options.lookup }) }, (res) => {
      if (options.dropAnswer) res.destroy();
      else res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}
