import { HttpError, errors } from '../../model/errors.js';
import { AttachmentsUnavailableError } from '../../store/attachment-store.js';
import { StoreUnavailableError, StoreWriteError } from '../../store/write-error.js';
import { STATUS_CODES } from 'node:http';
import type { Readable } from 'node:stream';
import type { HttpResponse } from './uws.js';

/** ntfy answers every origin: browser apps on other hosts publish and subscribe directly. */
export const corsHeaders: readonly (readonly [string, string])[] = [['Access-Control-Allow-Origin', '*']];

const statusText: Record<number, string> = {
  200: '200 OK',
  206: '206 Partial Content',
  304: '304 Not Modified',
  400: '400 Bad Request',
  401: '401 Unauthorized',
  403: '403 Forbidden',
  404: '404 Not Found',
  413: '413 Request Entity Too Large',
  416: '416 Range Not Satisfiable',
  429: '429 Too Many Requests',
  431: '431 Request Header Fields Too Large',
  500: '500 Internal Server Error',
  503: '503 Service Unavailable',
  507: '507 Insufficient Storage',
};

/** The status line's code and reason phrase, the table's or Node's: a bare `HTTP/1.1 301` lacks the space RFC 9112's status line requires. */
function status(code: number): string {
  return statusText[code] ?? `${code} ${STATUS_CODES[code] ?? ''}`.trimEnd();
}

/**
 * Tracks whether the client went away: uWS forbids touching a response after onAborted,
 * and every handler that answers later (after a body read or a commit) must check.
 */
export class Exchange {
  aborted = false;
  /** One function, chained when there are more: a list per open stream cost its heap 56–150 bytes. */
  private abortHandler: (() => void) | undefined;

  constructor(
    readonly res: HttpResponse,
    /** Told of every error answered (the log of refusals); `cause` is what was thrown. */
    private readonly onError?: (e: HttpError, cause: unknown) => void,
  ) {
    res.onAborted(() => {
      this.aborted = true;
      this.abortHandler?.();
    });
  }

  /** `handler` runs when the client goes away, after those registered before it. */
  onAbort(handler: () => void): void {
    const earlier = this.abortHandler;
    this.abortHandler = earlier
      ? () => {
          earlier();
          handler();
        }
      : handler;
  }

  /** Writes a whole response in one corked write; `headers` follow the CORS headers. */
  send(code: number, body: string | Buffer, contentType = 'application/json', headers: readonly (readonly [string, string])[] = []): void {
    if (this.aborted) return;
    this.aborted = true;
    this.res.cork(() => {
      this.res.writeStatus(status(code));
      for (const [name, value] of corsHeaders) this.res.writeHeader(name, value);
      for (const [name, value] of headers) this.res.writeHeader(name, value);
      this.res.writeHeader('Content-Type', contentType);
      this.res.end(body);
    });
  }

  json(value: unknown): void {
    this.send(200, `${JSON.stringify(value)}\n`);
  }

  /**
   * Streams `total` bytes from `source` with `headers`, pausing the source while the client
   * does not read (uWS's tryEnd/onWritable); without a source, only the headers (HEAD).
   */
  stream(code: number, headers: readonly (readonly [string, string])[], total: number, source?: Readable): void {
    if (this.aborted) return;
    const res = this.res;
    res.cork(() => {
      res.writeStatus(status(code));
      for (const [name, value] of [...corsHeaders, ...headers]) res.writeHeader(name, value);
      if (!source || total === 0) res.endWithoutBody(total);
    });
    if (!source || total === 0) {
      this.aborted = true;
      source?.destroy();
      return;
    }
    this.onAbort(() => source.destroy());
    source.on('error', () => {
      if (!this.aborted) res.close();
    });
    /** Writes `bytes`; true when all of it went out (false: uWS keeps the rest until onWritable). */
    const write = (bytes: Uint8Array): boolean => {
      let [ok, done] = [false, false];
      res.cork(() => ([ok, done] = res.tryEnd(bytes, total)));
      if (done) {
        this.aborted = true;
        source.destroy();
      }
      return ok;
    };
    source.on('data', (chunk: Buffer) => {
      if (this.aborted) return;
      const bytes = new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
      const offset = res.getWriteOffset();
      if (write(bytes) || this.aborted) return;
      source.pause();
      res.onWritable((at) => {
        const ok = write(bytes.subarray(at - offset));
        if (ok && !this.aborted) source.resume();
        return ok;
      });
    });
  }

  /**
   * ntfy's error body; anything that is not an HttpError is answered as 50001. The one
   * place errors are answered, so the one place they are reported (not when the client
   * went away: nobody is refused then).
   */
  error(err: unknown): void {
    if (this.aborted) return;
    const e = err instanceof HttpError ? err : err instanceof Error ? storeError(err) : errors.internal;
    this.onError?.(e, err);
    this.send(e.http, `${JSON.stringify(e)}\n`);
  }
}

/** A store's failure: a write refused (507 when full, 503 otherwise; nothing stored either way), a store not reached (503), else 50001. */
function storeError(err: Error): HttpError {
  if (err instanceof StoreWriteError) return err.full ? errors.cacheFull : errors.cacheUnavailable;
  if (err instanceof StoreUnavailableError) return errors.storeUnavailable;
  if (err instanceof AttachmentsUnavailableError) return errors.attachmentsUnavailable;
  return errors.internal;
}
