import type { Logger } from 'pino';
import type { SendMailOptions, Transporter } from 'nodemailer';
import type { Message } from '../../model/message.js';
import { composeMail } from './compose.js';
import { Drops } from './drops.js';
import type { HtmlPart } from './html-part.js';
import { composeNotice, type Notice } from './notice.js';

/** Told of every mail's outcome (ntfy_emails_sent_success|failure). */
export interface MailObserver {
  mailSent(ok: boolean): void;
}

/** What is to be mailed: a published message forwarded (X-Email), or a notice of the account API. */
export type MailOrder = { message: Message; to: string; senderIp: string } | { notice: Notice };

/** What the publish path and the account API use to send a mail: queue it and go on. */
export interface MailSender {
  /** Queues `message` for `to`; `senderIp` is named in the mail, as ntfy does against abuse. Never throws or waits. */
  send(message: Message, to: string, senderIp: string): void;
  /** Queues a notice (a magic link) through the same queue, bound and retries. Never throws or waits. */
  sendNotice(notice: Notice): void;
  /** Mails queued, waiting for a retry or being sent. */
  readonly pending: number;
  /** Stops taking mails; those not sent in time are dropped (and counted as failed). */
  close(): Promise<void>;
}

export interface MailerOptions {
  /** Mails waiting, retrying or being sent at most; past it new ones are dropped (and counted as failed). */
  queueLimit: number;
  /** Mails handed to the relay at once. */
  concurrency: number;
  /** Waits before each retry of a mail the relay did not take; its length is the number of retries. */
  retryDelaysMs: readonly number[];
}

/** A relay's hiccup is retried; defaults sized for a public instance (each visitor sends 16 at most at once). */
export const defaultMailerOptions: MailerOptions = { queueLimit: 1_000, concurrency: 4, retryDelaysMs: [5_000, 30_000, 120_000] };

interface Job {
  order: MailOrder;
  attempts: number;
}

/**
 * Forwards messages as e-mail behind the publish path: `send` only queues (O(1), never
 * throws, never waits), and the mails go out afterwards, `concurrency` at a time. A mail
 * the relay refuses for now (a 4xx, a connection that fails or times out) is tried again
 * after each of `retryDelaysMs`; a permanent refusal (5xx) or the last failure is logged
 * and counted. The queue is bounded, so a dead relay costs memory for `queueLimit` mails
 * at most and publishing goes on at full speed (ntfy starts a goroutine per mail, unbounded).
 */
export class Mailer implements MailSender {
  private readonly queue: Job[] = [];
  private readonly retries = new Set<NodeJS.Timeout>();
  private readonly drops: Drops;
  private active = 0;
  private closed = false;
  private idle: (() => void) | undefined;

  constructor(
    private readonly transport: Transporter,
    private readonly html: HtmlPart,
    private readonly sender: { from: string; baseUrl: string },
    private readonly log: Logger,
    private readonly observer: MailObserver | undefined,
    private readonly options: MailerOptions = defaultMailerOptions,
  ) {
    this.drops = new Drops(log, observer, options.queueLimit);
  }

  get pending(): number {
    return this.queue.length + this.retries.size + this.active;
  }

  send(message: Message, to: string, senderIp: string): void {
    this.queueOrder({ message, to, senderIp });
  }

  sendNotice(notice: Notice): void {
    this.queueOrder({ notice });
  }

  /** Queues an order of either kind (the mail thread hands them over as they came). */
  queueOrder(order: MailOrder): void {
    if (this.closed || this.pending >= this.options.queueLimit) return this.drops.drop(this.closed);
    this.queue.push({ order, attempts: 0 });
    this.pump();
  }

  /** Stops taking mails and retrying (those dropped count as failed); waits up to `graceMs` for those being sent, then closes the relay's connections. */
  async close(graceMs = 3_000): Promise<void> {
    this.closed = true;
    for (const timer of this.retries) clearTimeout(timer);
    const unsent = this.queue.length + this.retries.size;
    this.retries.clear();
    this.queue.length = 0;
    for (let i = 0; i < unsent; i++) this.observer?.mailSent(false);
    if (this.active > 0) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, graceMs);
        this.idle = () => {
          clearTimeout(timer);
          resolve();
        };
      });
    }
    if (unsent > 0) this.log.warn({ unsent }, 'stopping: e-mails not yet sent are dropped');
    this.transport.close();
  }

  private pump(): void {
    while (this.active < this.options.concurrency && this.queue.length > 0) {
      const job = this.queue.shift() as Job;
      this.active++;
      void this.attempt(job).finally(() => {
        this.active--;
        if (this.active === 0) this.idle?.();
        this.pump();
      });
    }
  }

  private async attempt(job: Job): Promise<void> {
    job.attempts++;
    try {
      await this.transport.sendMail(this.compose(job.order));
    } catch (err) {
      this.failed(job, err);
      return;
    }
    this.observer?.mailSent(true);
    this.log.debug({ ...logFields(job.order), attempts: job.attempts }, 'e-mail sent');
  }

  private compose(order: MailOrder): SendMailOptions {
    if ('notice' in order) return composeNotice(order.notice, this.sender.from, this.sender.baseUrl);
    const { message, to, senderIp } = order;
    return composeMail(message, to, this.sender.from, { topicUrl: `${this.sender.baseUrl}/${message.topic}`, senderIp }, this.html);
  }

  private failed(job: Job, err: unknown): void {
    const delay = this.options.retryDelaysMs[job.attempts - 1];
    const context = { ...logFields(job.order), attempts: job.attempts, err };
    if (delay !== undefined && !this.closed && isTransient(err)) {
      this.log.debug(context, `e-mail not sent, retrying in ${delay} ms`);
      const timer = setTimeout(() => {
        this.retries.delete(timer);
        this.queue.push(job);
        this.pump();
      }, delay);
      this.retries.add(timer);
      return;
    }
    this.observer?.mailSent(false);
    this.log.warn(context, 'e-mail could not be sent');
  }
}

/** What a log line tells of a mail: never a notice's text, which holds a magic link. */
function logFields(order: MailOrder): Record<string, string> {
  if ('notice' in order) return { email_to: order.notice.to, subject: order.notice.subject };
  return { email_to: order.to, topic: order.message.topic, id: order.message.id };
}

/** A relay's 5xx is final (RFC 5321 §4.2.1); its 4xx, and errors before it answered, may pass later. */
function isTransient(err: unknown): boolean {
  const code = (err as { responseCode?: unknown } | null)?.responseCode;
  return typeof code !== 'number' || code < 500;
}
