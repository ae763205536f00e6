import { request } from 'node:http';
import WebSocket from 'ws';

export interface Json {
  [key: string]: unknown;
}

/** Values arriving from a connection, taken in order by waiting readers (no sleeps). */
export class Mailbox<T> {
  private readonly items: T[] = [];
  private waiters: (() => void)[] = [];
  /** Set when no more items will come; `take` then fails with it. */
  ended: string | undefined;

  put(item: T): void {
    this.items.push(item);
    this.wake();
  }

  end(reason: string): void {
    this.ended ??= reason;
    this.wake();
  }

  async take(timeoutMs: number): Promise<T> {
    await this.until(() => this.items.length > 0 || this.ended !== undefined, timeoutMs);
    if (this.items.length === 0) throw new Error(this.ended);
    return this.items.shift() as T;
  }

  /** Waits until `done()` holds, re-checking on each arrival. */
  async until(done: () => boolean, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!done()) {
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }
}

/** Reads a streaming HTTP response line by line, as ntfy's CLI and scripts do. */
export class LineStream {
  private readonly lines = new Mailbox<string>();
  private buffer = '';
  readonly response: Promise<Response>;
  private readonly controller = new AbortController();
  /** Why the response broke off (a reset, no final chunk); undefined while open or after a clean end or close(). */
  failure: unknown;

  constructor(url: string, init: RequestInit = {}) {
    this.response = fetch(url, { ...init, signal: this.controller.signal });
    void this.pump();
  }

  private async pump(): Promise<void> {
    try {
      const res = await this.response;
      const decoder = new TextDecoder();
      for await (const chunk of res.body as AsyncIterable<Uint8Array>) {
        this.buffer += decoder.decode(chunk, { stream: true });
        let nl: number;
        while ((nl = this.buffer.indexOf('\n')) >= 0) {
          this.lines.put(this.buffer.slice(0, nl));
          this.buffer = this.buffer.slice(nl + 1);
        }
      }
    } catch (err) {
      if (!this.controller.signal.aborted) this.failure = err;
    }
    this.lines.end('stream ended');
  }

  /** The next line, waiting for it; rejects if the stream ends first or after `timeoutMs`. */
  next(timeoutMs = 5000): Promise<string> {
    return this.lines.take(timeoutMs);
  }

  async nextJson(timeoutMs?: number): Promise<Json> {
    return JSON.parse(await this.next(timeoutMs)) as Json;
  }

  /** Waits until the server ends the response. */
  end(timeoutMs = 5000): Promise<void> {
    return this.lines.until(() => this.lines.ended !== undefined, timeoutMs);
  }

  close(): void {
    this.controller.abort();
  }
}

export interface SseEvent {
  event: string;
  data: string;
  /** The event's `id:` field, when it has one. */
  id?: string;
}

/** An EventSource-style parser over a LineStream: `event:` and `data:` fields, blank line ends an event. */
export class SseStream {
  private readonly lines: LineStream;

  constructor(url: string, init: RequestInit = {}) {
    this.lines = new LineStream(url, init);
  }

  get response(): Promise<Response> {
    return this.lines.response;
  }

  get failure(): unknown {
    return this.lines.failure;
  }

  /** Waits until the server ends the response. */
  end(timeoutMs?: number): Promise<void> {
    return this.lines.end(timeoutMs);
  }

  async next(timeoutMs?: number): Promise<SseEvent> {
    let event = 'message';
    let id: string | undefined;
    const data: string[] = [];
    for (;;) {
      const line = await this.lines.next(timeoutMs);
      if (line === '') {
        if (data.length > 0) return { event, data: data.join('\n'), ...(id !== undefined && { id }) };
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
      else if (field === 'id') id = value;
    }
  }

  close(): void {
    this.lines.close();
  }
}

/** A WebSocket subscriber collecting JSON frames. */
export class WsStream {
  readonly ws: WebSocket;
  private readonly frames = new Mailbox<Json>();
  closed: { code: number } | undefined;

  constructor(url: string, headers: Record<string, string> = {}) {
    this.ws = new WebSocket(url.replace(/^http/, 'ws'), { headers });
    this.ws.on('message', (data) => this.frames.put(JSON.parse(String(data)) as Json));
    this.ws.on('close', (code) => {
      this.closed = { code };
      this.frames.end(`socket closed (${code})`);
    });
    this.ws.on('error', (err) => this.frames.end(`socket error: ${err.message}`));
  }

  next(timeoutMs = 5000): Promise<Json> {
    return this.frames.take(timeoutMs);
  }

  async waitClosed(timeoutMs = 5000): Promise<number> {
    await this.frames.until(() => this.closed !== undefined, timeoutMs);
    return (this.closed as { code: number }).code;
  }

  close(): void {
    this.ws.close();
  }
}

export async function publish(url: string, body: string | Buffer = '', headers: Record<string, string> = {}, method = 'POST'): Promise<{ status: number; json: Json }> {
  const res = await fetch(url, { method, body: method === 'GET' ? undefined : body, headers });
  return { status: res.status, json: (await res.json()) as Json };
}

/** A POST without Content-Length (chunked), so only the streaming limit can stop it. */
export function postChunked(url: string, body: Buffer, headers: Record<string, string> = {}): Promise<[number, Json]> {
  return new Promise((resolve, reject) => {
    const req = request(url, { method: 'POST', headers: { ...headers, 'Transfer-Encoding': 'chunked' } }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += String(chunk)));
      res.on('end', () => resolve([res.statusCode ?? 0, JSON.parse(text) as Json]));
    });
    req.on('error', reject);
    for (let at = 0; at < body.length; at += 64 * 1024) req.write(body.subarray(at, at + 64 * 1024));
    req.end();
  });
}

/** A GET's answer as it came: status line, headers and the body's raw bytes. */
export interface RawReply {
  status: number;
  statusMessage: string;
  headers: Record<string, string | string[] | undefined>;
  body: Buffer;
}

/** A GET as raw bytes (fetch would decompress them and follow redirects). */
export function rawGet(base: string, path: string, headers: Record<string, string> = {}): Promise<RawReply> {
  return new Promise((resolve, reject) => {
    request(`${base}${path}`, { headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, statusMessage: res.statusMessage ?? '', headers: res.headers, body: Buffer.concat(chunks) }));
    })
      .on('error', reject)
      .end();
  });
}
