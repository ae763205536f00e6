import { connect, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Figure, Scenario, Sizes } from '../figures.js';
import type { HttpLoadResult } from '../load/autocannon.js';
import { hasWrk, runWrkScript } from '../load/wrk.js';
import { percentile } from '../proc.js';
import { startTocsin, type Target } from '../targets.js';

const connections = 64;

/** wrk's Lua: POST to one topic, with X-Email when EMAIL is set. */
const script = `
wrk.method = "POST"
wrk.body = "bench publish"
wrk.path = "/bench"
local email = os.getenv("EMAIL") or ""
if email ~= "" then wrk.headers["X-Email"] = email end
`;

/**
 * 11. E-mail (Tocsin only). Out: publishes with X-Email on every one against publishes
 * without, on the same server, each mail relayed to an SMTP sink in this process — the
 * rate at full load (wrk) and the latency at a fixed, paced rate. In: mails sent to the
 * SMTP listener one after another, and how long from the end of each DATA until a
 * subscriber has the message.
 */
export const emailScenario: Scenario = async (target, sizes, load) => {
  if (target.name !== 'tocsin') return [];
  const sink = await startSink();
  const server = await startTocsin({
    settings: [
      '--base-url', 'http://bench.test', '--smtp-sender-addr', `127.0.0.1:${sink.port}`, '--smtp-sender-from', 'bench@example.com',
      '--visitor-email-limit-burst', '1000000000', '--smtp-server-listen', '127.0.0.1:0', '--smtp-server-domain', 'bench.test',
    ],
  });
  try {
    return [...(await out(server, sizes, load, sink)), ...(await into(server, sizes))];
  } finally {
    await server.stop();
    await new Promise<void>((resolve) => sink.server.close(() => resolve()));
  }
};

async function out(server: Target, sizes: Sizes, load: Parameters<Scenario>[2], sink: Sink): Promise<Figure[]> {
  const figures: Figure[] = [];
  const fig = (name: string, value: number, unit: string, better: Figure['better'], params: Figure['params']): void => {
    figures.push({ scenario: 'email', name, value, unit, better, params });
  };
  if (await hasWrk()) {
    // Alternating rounds, so the machine's drift falls on both alike.
    for (const round of [1, 2]) {
      for (const email of ['', 'bench@example.com']) {
        const before = sink.received;
        const r: HttpLoadResult = await runWrkScript({ url: server.url, topics: 1, connections, durationSeconds: sizes.publishSeconds, rate: 0 }, script, { EMAIL: email });
        if (r.errors > 0) throw new Error(`email scenario: ${r.errors} failed publishes`);
        const params = { 'X-Email': email ? 'yes' : 'no', round, connections, client: 'wrk' };
        fig('publish rate', r.rps, 'req/s', 'higher', params);
        fig('publish p99', r.p99, 'ms', 'lower', params);
        if (email) fig('mails relayed during the run', sink.received - before, 'mails', 'higher', params);
      }
    }
  }
  // A rate a busy instance sees, each publish mailed: what the publisher waits for.
  const rate = 500;
  for (const email of ['', 'bench@example.com', '', 'bench@example.com']) {
    const paced = await load.paced.call<{ p50: number; p99: number; failed: number }>('run', {
      url: server.url, topic: 'paced', rate, durationMs: sizes.publishSeconds * 1000, connections: 8, ...(email && { headers: { 'X-Email': email } }),
    });
    if (paced.failed > 0) throw new Error(`email scenario: ${paced.failed} failed paced publishes`);
    const params = { 'X-Email': email ? 'yes' : 'no', rate, client: 'paced' };
    fig('publish p50 at a fixed rate', paced.p50, 'ms', 'lower', params);
    fig('publish p99 at a fixed rate', paced.p99, 'ms', 'lower', params);
  }
  return figures;
}

/** Mails in: from writing each DATA's final dot to the subscriber's having the message. */
async function into(server: Target, sizes: Sizes): Promise<Figure[]> {
  const arrivals = new Map<number, number>();
  const controller = new AbortController();
  const res = await fetch(`${server.url}/inbox/json`, { signal: controller.signal });
  const reader = (res.body as ReadableStream<Uint8Array>).getReader();
  let opened!: () => void;
  const open = new Promise<void>((resolve) => (opened = resolve));
  void (async () => {
    let buffer = '';
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buffer += Buffer.from(value as Uint8Array).toString('utf8');
      let nl: number;
      while ((nl = buffer.indexOf('\n')) >= 0) {
        const event = JSON.parse(buffer.slice(0, nl)) as { event: string; message?: string };
        buffer = buffer.slice(nl + 1);
        if (event.event === 'open') opened();
        if (event.event === 'message') arrivals.set(Number(event.message), performance.now());
      }
    }
  })();
  await open;
  const smtp = await SmtpClient.open(server.smtpPort as number);
  const latencies: number[] = [];
  const replies: number[] = [];
  try {
    for (let i = 0; i < sizes.mailsIn; i++) {
      const { endOfData, replied } = await smtp.send('inbox@bench.test', `Subject: mail ${i}\r\nContent-Type: text/plain\r\n\r\n${i}\r\n`);
      replies.push(replied - endOfData);
      while (!arrivals.has(i)) await new Promise((resolve) => setImmediate(resolve));
      latencies.push((arrivals.get(i) as number) - endOfData);
    }
  } finally {
    smtp.close();
    controller.abort();
  }
  latencies.sort((a, b) => a - b);
  replies.sort((a, b) => a - b);
  const params = { mails: sizes.mailsIn, sequential: 1 };
  return [
    { scenario: 'email', name: 'mail in: end of DATA to subscriber p50', value: percentile(latencies, 50), unit: 'ms', better: 'lower', params },
    { scenario: 'email', name: 'mail in: end of DATA to subscriber p99', value: percentile(latencies, 99), unit: 'ms', better: 'lower', params },
    { scenario: 'email', name: 'mail in: end of DATA to 250 p99', value: percentile(replies, 99), unit: 'ms', better: 'lower', params },
  ];
}

interface Sink {
  server: SMTPServer;
  port: number;
  received: number;
}

/** An SMTP server that takes every mail and counts it. */
async function startSink(): Promise<Sink> {
  const sink: Sink = { server: new SMTPServer({ logger: false, authOptional: true, disabledCommands: ['STARTTLS'], closeTimeout: 100, onData: (stream, _s, done) => {
    stream.on('end', () => {
      sink.received++;
      done();
    });
    stream.resume();
  } }), port: 0, received: 0 };
  sink.port = await new Promise<number>((resolve) => sink.server.listen(0, '127.0.0.1', () => {
    const address = sink.server.server.address();
    resolve(typeof address === 'object' && address ? address.port : 0);
  }));
  return sink;
}

/** A minimal SMTP client on one connection, so the end of DATA is known to the microsecond. */
class SmtpClient {
  private buffer = '';
  private waiter: ((line: string) => void) | undefined;

  private constructor(private readonly socket: Socket) {
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      this.buffer += chunk;
      this.deliver();
    });
  }

  static async open(port: number): Promise<SmtpClient> {
    const client = new SmtpClient(connect({ host: '127.0.0.1', port }));
    client.socket.setNoDelay(true);
    await client.reply(); // 220
    await client.command('EHLO bench.test');
    return client;
  }

  async send(to: string, data: string): Promise<{ endOfData: number; replied: number }> {
    await this.command('MAIL FROM:<bench@example.com>');
    await this.command(`RCPT TO:<${to}>`);
    await this.command('DATA');
    const endOfData = performance.now();
    const reply = await this.command(`${data}.`);
    if (!reply.startsWith('250')) throw new Error(`mail refused: ${reply}`);
    return { endOfData, replied: performance.now() };
  }

  close(): void {
    this.socket.destroy();
  }

  private command(line: string): Promise<string> {
    this.socket.write(`${line}\r\n`);
    return this.reply();
  }

  /** The final line of the next reply (`250 ...`, not `250-...`). */
  private reply(): Promise<string> {
    return new Promise((resolve) => {
      this.waiter = resolve;
      this.deliver();
    });
  }

  private deliver(): void {
    for (;;) {
      const nl = this.buffer.indexOf('\r\n');
      if (nl < 0 || !this.waiter) return;
      const line = this.buffer.slice(0, nl);
      this.buffer = this.buffer.slice(nl + 2);
      if (line[3] === '-') continue;
      const waiter = this.waiter;
      this.waiter = undefined;
      waiter(line);
    }
  }
}
