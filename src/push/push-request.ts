import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';

/**
 * POSTs one push (RFC 8030 §5) and resolves with the push service's status; the answer's
 * body is read and dropped. `lookup`, when given, picks the address connected to (see
 * publicLookup). node:https rather than fetch: fetch takes no per-request lookup without
 * an undici dispatcher of the same version as Node's own.
 */
export function postPush(endpoint: string, headers: Record<string, string>, body: Buffer, options: { lookup: LookupFunction | undefined; timeoutMs: number }): Promise<number> {
  const url = new URL(endpoint);
  const client = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = client.request(url, { method: 'POST', headers, signal: AbortSignal.timeout(options.timeoutMs), ...(options.lookup && { lookup: options.lookup }) }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    });
    req.on('error', reject);
    req.end(body);
  });
}
