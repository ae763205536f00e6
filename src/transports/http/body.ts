import { errors } from '../../model/errors.js';
import type { Exchange } from './respond.js';

export interface Body {
  bytes: Buffer;
  /** More than `limit` bytes were sent; `bytes` holds only the first `limit`. */
  truncated: boolean;
}

/**
 * Reads a request body, keeping at most `limit` bytes: a client cannot make the server
 * buffer more than that, whatever it sends. Resolves once the client finished sending or
 * the limit was passed; rejects if the client went away.
 */
export function readBody(ex: Exchange, limit: number): Promise<Body> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    ex.onAbort(() => {
      if (!done) reject(new Error('client went away'));
    });
    ex.res.onData((chunk, isLast) => {
      if (done) return;
      // uWS reuses the chunk's memory after this callback: copy what we keep.
      const room = limit - size;
      const take = Math.min(room, chunk.byteLength);
      if (take > 0) chunks.push(Buffer.from(chunk.slice(0, take)));
      size += take;
      if (chunk.byteLength > room) {
        done = true;
        resolve({ bytes: Buffer.concat(chunks, size), truncated: true });
      } else if (isLast) {
        done = true;
        resolve({ bytes: Buffer.concat(chunks, size), truncated: false });
      }
    });
  });
}

/** ntfy's cap on JSON request bodies of the account API (jsonBodyBytesLimit). */
const jsonBodyLimit = 32_768;

/**
 * A JSON object body of the account API: 41303 when too large, 40024 when not a JSON
 * object; an empty body is `{}` where ntfy allows one (`allowEmpty`). Start it before
 * any await: uWS hands over the body only to a handler that asked for it at once.
 */
export function readJson(ex: Exchange, allowEmpty = false): Promise<Record<string, unknown>> {
  const json = parseJson(ex, allowEmpty);
  // Handlers check credentials before awaiting the body; a bad body must not count as
  // an unhandled rejection meanwhile (or when the credentials fail first).
  json.catch(() => undefined);
  return json;
}

async function parseJson(ex: Exchange, allowEmpty: boolean): Promise<Record<string, unknown>> {
  const body = await readBody(ex, jsonBodyLimit);
  if (body.truncated) throw errors.entityTooLargeJsonBody;
  if (body.bytes.length === 0 && allowEmpty) return {};
  let value: unknown;
  try {
    value = JSON.parse(body.bytes.toString('utf8'));
  } catch {
    throw errors.jsonInvalid;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) throw errors.jsonInvalid;
  return value as Record<string, unknown>;
}
