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
