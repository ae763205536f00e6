import type { Logger } from 'pino';
import type { MailObserver } from './mailer.js';

/**
 * Mails given up on because the send queue is full (or closed): each is counted as failed
 * (ntfy_emails_sent_failure); the log says how many at most once a second, so a flood of
 * X-Email publishes against a dead relay cannot flood the log too.
 */
export class Drops {
  private sinceLog = 0;
  private loggedAt = 0;

  constructor(
    private readonly log: Logger,
    private readonly observer: MailObserver | undefined,
    private readonly queueLimit: number,
  ) {}

  drop(closed: boolean): void {
    this.observer?.mailSent(false);
    this.sinceLog++;
    const now = Date.now();
    if (now - this.loggedAt < 1_000) return;
    this.log.warn({ dropped: this.sinceLog, queueLimit: this.queueLimit, closed }, 'e-mails dropped: the send queue is full');
    this.loggedAt = now;
    this.sinceLog = 0;
  }
}
