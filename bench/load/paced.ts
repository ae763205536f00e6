/**
 * Paced publish load: requests at evenly spaced times over keep-alive sockets, with
 * latency counted from each request's scheduled time (so a stalled server cannot hide
 * its queueing). A minimal HTTP/1.1 client over raw sockets, because Node's http client
 * tops out near the rates being measured and would measure itself.
 */
import { connect, type Socket } from 'node:net';
import { percentile } from '../proc.js';
import { serveCommands } from '../worker.js';

interface Paced {
  url: string;
  topic: string;
  rate: number;
  durationMs: number;
  connections: number;
  /** Extra request headers (the e-mail scenario's X-Email). */
  headers?: Record<string, string>;
}

interface Conn {
  socket: Socket;
  busy: boolean;
  scheduled: number;
  buffer: Buffer;
}

const headerEnd = Buffer.from('\r\n\r\n');
const ok = Buffer.from('200');

/** Length of the first complete response in `buf`, or 0 if it is not complete yet. */
function responseLength(buf: Buffer): number {
  const end = buf.indexOf(headerEnd);
  if (end < 0) return 0;
  const length = /content-length: *(\d+)/i.exec(buf.toString('latin1', 0, end))?.[1];
  const total = end + 4 + Number(length ?? 0);
  return buf.length >= total ? total : 0;
}

serveCommands({
  run: ({ url, topic, rate, durationMs, connections, headers = {} }: Paced) =>
    new Promise((resolve) => {
      const base = new URL(url);
      const body = 'bench paced';
      const extra = Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('');
      const request = Buffer.from(`POST /${topic} HTTP/1.1\r\nHost: ${base.host}\r\n${extra}Content-Length: ${body.length}\r\n\r\n${body}`);
      const latencies: number[] = [];
      const backlog: number[] = [];
      /** How late this client noticed each request was due: its own lag, which the latencies include. */
      const lags: number[] = [];
      let failed = 0;
      const conns: Conn[] = [];
      const dispatch = (conn: Conn): void => {
        const scheduled = backlog.shift();
        if (scheduled === undefined) return;
        conn.busy = true;
        conn.scheduled = scheduled;
        conn.socket.write(request);
      };
      for (let i = 0; i < connections; i++) {
        const conn: Conn = { socket: connect({ host: base.hostname, port: Number(base.port) }), busy: false, scheduled: 0, buffer: Buffer.alloc(0) };
        conn.socket.setNoDelay(true);
        conn.socket.on('data', (chunk: Buffer) => {
          conn.buffer = conn.buffer.length ? Buffer.concat([conn.buffer, chunk]) : chunk;
          const n = responseLength(conn.buffer);
          if (n === 0) return;
          if (!conn.buffer.subarray(9, 12).equals(ok)) failed++;
          conn.buffer = conn.buffer.subarray(n);
          latencies.push(performance.now() - conn.scheduled);
          conn.busy = false;
          dispatch(conn);
        });
        conns.push(conn);
      }
      const start = performance.now() + 200;
      const total = Math.floor((rate * durationMs) / 1000);
      let issued = 0;
      const tick = (): void => {
        const now = performance.now();
        while (issued < total && start + (issued * 1000) / rate <= now) {
          const scheduled = start + (issued * 1000) / rate;
          backlog.push(scheduled);
          lags.push(now - scheduled);
          issued++;
        }
        for (const conn of conns) if (!conn.busy && backlog.length > 0) dispatch(conn);
        if (issued < total || latencies.length < total) setImmediate(tick);
        else {
          for (const c of conns) c.socket.destroy();
          latencies.sort((a, b) => a - b);
          lags.sort((a, b) => a - b);
          resolve({ sent: latencies.length, failed, p50: percentile(latencies, 50), p99: percentile(latencies, 99), p999: percentile(latencies, 99.9), lagP99: percentile(lags, 99) });
        }
      };
      setTimeout(tick, 200);
    }),
});
