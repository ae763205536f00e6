import { once } from 'node:events';
import { Worker } from 'node:worker_threads';
import { pino, type Logger } from 'pino';
import type { Config } from '../../config/schema.js';
import type { Message } from '../../model/message.js';
import { Drops } from './drops.js';
import { defaultMailerOptions, type MailerOptions, type MailObserver, type MailOrder, type MailSender } from './mailer.js';
import type { Notice } from './notice.js';

/** What the mail thread is started with. */
export interface ThreadInput {
  sender: NonNullable<Config['smtpSender']>;
  baseUrl: string;
  logLevel: Config['logLevel'];
  options: MailerOptions;
}

/** Main thread to mail thread. */
export type ToThread = { jobs: MailOrder[] } | { close: number };
/** Mail thread to main thread: outcomes counted since the last report, pino lines to log, and the end. */
export type FromThread = { ready: true } | { sent: number; failed: number } | { log: string } | { closed: true };

/**
 * The mailer as the server uses it: rendering a mail and building its MIME costs ~1 ms
 * of CPU (nodemailer's encoding, most of it), 20 to 30 publishes' worth, so mails are
 * rendered and sent on a thread of their own. The publish path only appends the job to
 * this turn's batch (one postMessage per event-loop turn, not per mail); the bound is kept
 * here, counting jobs until the thread reports their outcome, so a dead relay never
 * grows either side. The thread's log lines are written to this server's log.
 */
export class MailerThread implements MailSender {
  private batch: MailOrder[] = [];
  private inFlight = 0;
  private closed = false;
  private readonly drops: Drops;

  private constructor(
    private readonly worker: Worker,
    private readonly observer: MailObserver | undefined,
    private readonly log: Logger,
    private readonly queueLimit: number,
  ) {
    this.drops = new Drops(log, observer, queueLimit);
    worker.on('message', (msg: FromThread) => this.receive(msg));
    worker.on('error', (err) => log.error({ err }, 'the mail thread failed'));
  }

  static async start(config: Config, log: Logger, observer: MailObserver | undefined, options: MailerOptions = defaultMailerOptions): Promise<MailerThread | undefined> {
    if (!config.smtpSender) return undefined;
    const workerData: ThreadInput = { sender: config.smtpSender, baseUrl: config.baseUrl, logLevel: config.logLevel, options };
    const worker = new Worker(new URL('./mail-thread.js', import.meta.url), { workerData });
    const thread = new MailerThread(worker, observer, log.child({ tag: 'email' }), options.queueLimit);
    const [first] = (await Promise.race([once(worker, 'message'), once(worker, 'error').then(([err]) => Promise.reject(err as Error))])) as [FromThread];
    if (!('ready' in first)) throw new Error('the mail thread did not start');
    return thread;
  }

  get pending(): number {
    return this.inFlight;
  }

  send(message: Message, to: string, senderIp: string): void {
    this.queueOrder({ message, to, senderIp });
  }

  sendNotice(notice: Notice): void {
    this.queueOrder({ notice });
  }

  private queueOrder(order: MailOrder): void {
    if (this.closed || this.inFlight >= this.queueLimit) return this.drops.drop(this.closed);
    this.inFlight++;
    if (this.batch.push(order) === 1) setImmediate(() => this.flush());
  }

  /** Sends what is queued, gives those being sent 3 s, and ends the thread. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.flush();
    this.closed = true;
    const closed = new Promise<void>((resolve) => {
      this.worker.on('message', (msg: FromThread) => 'closed' in msg && resolve());
      this.worker.once('exit', () => resolve()); // a thread that failed says nothing more
    });
    this.worker.postMessage({ close: 3_000 } satisfies ToThread);
    await closed;
    await this.worker.terminate();
  }

  private flush(): void {
    if (this.batch.length === 0) return;
    this.worker.postMessage({ jobs: this.batch } satisfies ToThread);
    this.batch = [];
  }

  private receive(msg: FromThread): void {
    if ('sent' in msg) {
      this.inFlight -= msg.sent + msg.failed;
      for (let i = 0; i < msg.sent; i++) this.observer?.mailSent(true);
      for (let i = 0; i < msg.failed; i++) this.observer?.mailSent(false);
    } else if ('log' in msg) {
      this.relog(msg.log);
    }
  }

  /** A pino line of the thread, written again through this server's logger (its format, level and destination). */
  private relog(line: string): void {
    const { level, msg, ...fields } = JSON.parse(line) as { level: number; msg: string } & Record<string, unknown>;
    delete fields.time; // the main logger stamps its own
    const label = pino.levels.labels[level] as pino.Level | undefined;
    if (label) this.log[label](fields, msg);
  }
}
