import WebSocket from 'ws';

export interface Json {
  [key: string]: unknown;
}

/** Reads a streaming HTTP response line by line, as ntfy's CLI and scripts do. */
export class LineStream {
  private readonly lines: string[] = [];
  private waiters: (() => void)[] = [];
  private buffer = '';
  readonly response: Promise<Response>;
  private readonly controller = new AbortController();
  ended = false;

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
          this.lines.push(this.buffer.slice(0, nl));
          this.buffer = this.buffer.slice(nl + 1);
        }
        this.wake();
      }
    } catch {
      // aborted by close()
    }
    this.ended = true;
    this.wake();
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  /** The next line, waiting for it; rejects if the stream ends first or after `timeoutMs`. */
  async next(timeoutMs = 5000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (this.lines.length === 0) {
      if (this.ended) throw new Error('stream ended');
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for a line');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.lines.shift() as string;
  }

  async nextJson(timeoutMs?: number): Promise<Json> {
    return JSON.parse(await this.next(timeoutMs)) as Json;
  }

  /** Waits until the server ends the response. */
  async end(timeoutMs = 5000): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!this.ended) {
      if (Date.now() > deadline) throw new Error('timed out waiting for the end');
      await new Promise<void>((resolve) => this.waiters.push(resolve));
    }
  }

  close(): void {
    this.controller.abort();
  }
}

export interface SseEvent {
  event: string;
  data: string;
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

  async next(timeoutMs?: number): Promise<SseEvent> {
    let event = 'message';
    const data: string[] = [];
    for (;;) {
      const line = await this.lines.next(timeoutMs);
      if (line === '') {
        if (data.length > 0) return { event, data: data.join('\n') };
        continue;
      }
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
  }

  close(): void {
    this.lines.close();
  }
}

/** A WebSocket subscriber collecting JSON frames. */
export class WsStream {
  readonly ws: WebSocket;
  private readonly frames: Json[] = [];
  private waiters: (() => void)[] = [];
  closed: { code: number } | undefined;

  constructor(url: string) {
    this.ws = new WebSocket(url.replace(/^http/, 'ws'));
    this.ws.on('message', (data) => {
      this.frames.push(JSON.parse(String(data)) as Json);
      this.wake();
    });
    this.ws.on('close', (code) => {
      this.closed = { code };
      this.wake();
    });
    this.ws.on('error', () => this.wake());
  }

  private wake(): void {
    const waiters = this.waiters;
    this.waiters = [];
    for (const w of waiters) w();
  }

  async next(timeoutMs = 5000): Promise<Json> {
    const deadline = Date.now() + timeoutMs;
    while (this.frames.length === 0) {
      if (this.closed) throw new Error(`socket closed (${this.closed.code})`);
      const left = deadline - Date.now();
      if (left <= 0) throw new Error('timed out waiting for a frame');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.frames.shift() as Json;
  }

  async waitClosed(timeoutMs = 5000): Promise<number> {
    const deadline = Date.now() + timeoutMs;
    while (!this.closed) {
      if (Date.now() > deadline) throw new Error('timed out waiting for close');
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        this.waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
    return this.closed.code;
  }

  close(): void {
    this.ws.close();
  }
}

export async function publish(url: string, body: string | Buffer = '', headers: Record<string, string> = {}, method = 'POST'): Promise<{ status: number; json: Json }> {
  const res = await fetch(url, { method, body: method === 'GET' ? undefined : body, headers });
  return { status: res.status, json: (await res.json()) as Json };
}
