import { connect, type Socket } from 'node:net';
import { SMTPServer } from 'smtp-server';
import type { Figure, Scenario, Sizes } from '../figures.js';
import { hasWrk, runWrkScript } from '../load/wrk.js';
import { cpuSeconds, percentile } from '../proc.js';
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
 * without, each mail relayed to an SMTP sink in this process — the rate and the server's
 * CPU per publish at full load (wrk), and the latency at a fixed, paced rate. In: mails sent to the
 * SMTP listener one after another, and how long from the end of each DATA until a
 * subscriber has the message.
 */
export const emailScenario: Scenario = async (target, sizes, load) => {
  if (target.name !== 'tocsin') return [];
  const sink = await startSink();
  const start = (): Promise<Target> =>
    startTocsin({
      settings: [
        '--base-url', 'http://bench.test', '--smtp-sender-addr', `127.0.0.1:${sink.port}`, '--smtp-sender-from', 'bench@example.com',
        '--visitor-email-limit-burst', '1000000000', '--smtp-server-listen', '127.0.0.1:0', '--smtp-server-domain', 'bench.test',
      ],
    });
  try {
    const figures = await atFullLoad(start, sizes, sink);
    const server = await start();
    try {
      return [...figures, ...(await paced(server, sizes, load)), ...(await into(server, sizes))];
    } finally {
      await server.stop();
    }
  } finally {
    await new Promise<void>((resolve) => sink.server.close(() => resolve()));
  }
};

/**
 * wrk rounds without and with X-Email, each on a fresh server (the in-memory cache grows
 * by hundreds of thousands of rows a run, and each publish gets dearer with it), in the
 * order A B B A, so the machine's drift falls on both alike.
 */
async function atFullLoad(start: () => Promise<Target>, sizes: Sizes, sink: Sink): Promise<Figure[]> {
  if (!(await hasWrk())) return [];
  const figures: Figure[] = [];
  for (let round = 1; round <= sizes.emailRounds; round++) {
    for (const email of round % 2 === 1 ? ['', 'bench@example.com'] : ['bench@example.com', '']) {
      const server = await start();
      try {
        const before = sink.received;
        const cpu = [cpuSeconds(server.pid), cpuSeconds(server.pid, server.pid)];
        const r = await runWrkScript({ url: server.url, topics: 1, connections, durationSeconds: sizes.publishSeconds, rate: 0 }, script, { EMAIL: email });
        if (r.errors > 0) throw new Error(`email scenario: ${r.errors} failed publishes`);
        // The publish path's own cost: CPU of the main thread (where requests are handled), and of the whole process.
        const perPublish = (after: number | undefined, at: number | undefined): number => (((after ?? NaN) - (at ?? NaN)) / r.requests) * 1e6;
        const params = { 'X-Email': email ? 'yes' : 'no', round, connections, client: 'wrk' };
        const fig = (name: string, value: number, unit: string, better: Figure['better']): number => figures.push({ scenario: 'email', name, value, unit, better, params });
        fig('publish rate', r.rps, 'req/s', 'higher');
        fig('publish p99', r.p99, 'ms', 'lower');
        fig('server main-thread CPU per publish', perPublish(cpuSeconds(server.pid, server.pid), cpu[1]), 'µs', 'lower');
        fig('server CPU per publish (all threads)', perPublish(cpuSeconds(server.pid), cpu[0]), 'µs', 'lower');
        if (email) fig('mails relayed during the run', sink.received - before, 'mails', 'higher');
      } finally {
        await server.stop();
      }
    }
  }
  return figures;
}

/** A rate a busy instance sees, each publish mailed: what the publisher waits for. */
async function paced(server: Target, sizes: Sizes, load: Parameters<Scenario>[2]): Promise<Figure[]> {
  const figures: Figure[] = [];
  const rate = 500;
  for (const email of ['', 'bench@example.com', 'bench@example.com', '']) {
    const r = await load.paced.call<{ p50: number; p99: number; failed: number }>('run', {
      url: server.url, topic: 'paced', rate, durationMs: sizes.publishSeconds * 1000, connections: 8, ...(email && { headers: { 'X-Email': email } }),
    });
    if (r.failed > 0) throw new Error(`email scenario: ${r.failed} failed paced publishes`);
    const params = { 'X-Email': email ? 'yes' : 'no', rate, client: 'paced' };
    figures.push({ scenario: 'email', name: 'publish p50 at a fixed rate', value: r.p50, unit: 'ms', better: 'lower', params });
    figures.push({ scenario: 'email', name: 'publish p99 at a fixed rate', value: r.p99, unit: 'ms', better: 'lower', params });
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
