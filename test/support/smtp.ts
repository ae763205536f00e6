import { after } from 'node:test';
import { simpleParser, type ParsedMail } from 'mailparser';
import { createTransport, type SendMailOptions } from 'nodemailer';
import { SMTPServer } from 'smtp-server';
import { Mailbox } from './clients.js';

/** A mail as the sink received it: the envelope, the raw bytes and mailparser's reading. */
export interface Received {
  from: string;
  to: string[];
  raw: string;
  parsed: ParsedMail;
  /** The AUTH PLAIN user name the sender logged in with, if any. */
  user: string | undefined;
}

export interface SinkOptions {
  /** Answer this many DATA commands with 451 before taking mails. */
  refuseFirst?: number;
  /** Answer every DATA with this code (e.g. 550). */
  refuseAll?: number;
  /** Accept AUTH PLAIN only with these credentials. */
  login?: { user: string; pass: string };
}

/** A real SMTP server on a free 127.0.0.1 port that keeps what it receives, closed when the test file ends. */
export class SmtpSink {
  readonly mails = new Mailbox<Received>();
  /** DATA commands seen, refused ones included. */
  attempts = 0;
  port = 0;

  private constructor() {}

  static async start(options: SinkOptions = {}): Promise<SmtpSink> {
    const sink = new SmtpSink();
    const server = new SMTPServer({
      logger: false,
      // Tocsin's pooled connection to it stays open until Tocsin stops: do not wait for it.
      closeTimeout: 100,
      disabledCommands: ['STARTTLS'],
      authOptional: options.login === undefined,
      allowInsecureAuth: true,
      onAuth: (auth, _session, callback) => {
        const ok = options.login && auth.username === options.login.user && auth.password === options.login.pass;
        callback(ok ? null : new Error('bad credentials'), ok ? { user: auth.username } : undefined);
      },
      onData: (stream, session, callback) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          sink.attempts++;
          const refuse = options.refuseAll ?? (sink.attempts <= (options.refuseFirst ?? 0) ? 451 : undefined);
          if (refuse !== undefined) return callback(Object.assign(new Error('not now'), { responseCode: refuse }));
          const raw = Buffer.concat(chunks);
          void simpleParser(raw).then((parsed) => {
            sink.mails.put({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              raw: raw.toString('utf8'),
              parsed,
              user: session.user as string | undefined,
            });
            callback();
          });
        });
      },
    });
    sink.port = await new Promise<number>((resolve) =>
      server.listen(0, '127.0.0.1', () => {
        const address = server.server.address();
        resolve(typeof address === 'object' && address ? address.port : 0);
      }),
    );
    after(() => new Promise<void>((resolve) => server.close(() => resolve())));
    return sink;
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }
}

/** What nodemailer tells of a mail the server took: its final reply and the recipients it refused. */
export interface Sent {
  response: string;
  rejected: string[];
  rejectedErrors?: { response?: string }[];
}

/**
 * Sends one mail with nodemailer to a Tocsin SMTP listener, as an MTA would: resolves once
 * the server took it (`response`: `250 2.0.0 OK: queued`), or rejects with nodemailer's
 * error, whose `response` is the refusing reply line.
 */
export async function sendMail(port: number, mail: SendMailOptions, auth?: { user: string; pass: string }): Promise<Sent> {
  const transport = createTransport({ host: '127.0.0.1', port, secure: false, ignoreTLS: true, ...(auth && { auth }) });
  try {
    return (await transport.sendMail({ from: 'phil@example.com', ...mail })) as Sent;
  } finally {
    transport.close();
  }
}

/** The reply line a refused mail got (nodemailer's `err.response`); fails when the mail was taken. */
export async function refusal(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    return String((err as { response?: string }).response ?? err);
  }
  throw new Error('the mail was accepted');
}
