import type { RequestInfo } from './request.js';

/**
 * The most one header line (name and value, in UTF-8 bytes) may hold: 8 KB, as the nginx in
 * front of ntfy.sh and most ntfy deployments refuses a longer line (large_client_header_buffers
 * 4 8k; Go's net/http alone would take up to 1 MB of headers). It holds ntfy's clients'
 * real headers — a JSON X-Actions of three actions, an Authorization, a Title up to
 * message-title-size-limit — and an X-Message of message-size-limit: raised with that limit
 * so that such a message still fits RFC 2047 base64-encoded (4 bytes per 3).
 */
function headerLineLimit(messageSizeLimit: number): number {
  return Math.max(8 * 1024, Math.ceil(messageSizeLimit / 3) * 4 + 256);
}

/** All header lines together: nginx's four buffers of a line's size. */
const linesInAll = 4;

/**
 * Whether a request's header lines exceed the limits: answered 431 (43101) before any guard
 * or decoding. (uWS itself closes the connection of a request head that spans reads past
 * 4 KB, or has more than ~50 headers; one that arrives in one read may be much larger.)
 */
export function headersTooLarge(req: RequestInfo, messageSizeLimit: number): boolean {
  const line = headerLineLimit(messageSizeLimit);
  let total = 0;
  for (const [name, value] of req.headers) {
    const bytes = name.length + 2 + Buffer.byteLength(value); // `name: value`
    if (bytes > line) return true;
    total += bytes;
  }
  return total > line * linesInAll;
}
