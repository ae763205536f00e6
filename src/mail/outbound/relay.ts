import { createTransport } from 'nodemailer';
import type { Logger } from 'pino';
import type { Config } from '../../config/schema.js';
import { HtmlPart } from './html-part.js';
import { Mailer, type MailerOptions, type MailObserver } from './mailer.js';

/**
 * The mailer of smtp-sender-*: a pooled connection to the relay (STARTTLS when it offers
 * it, as Go's net/smtp; implicit TLS on port 465), AUTH PLAIN/LOGIN with smtp-sender-user.
 * Timeouts are short so that a relay that stops answering holds a sending slot for
 * seconds, not nodemailer's default minutes. Runs in the mail thread (mail-thread.ts).
 */
export async function relayMailer(sender: NonNullable<Config['smtpSender']>, baseUrl: string, log: Logger, observer: MailObserver, options: MailerOptions): Promise<Mailer> {
  const transport = createTransport({
    host: sender.host,
    port: sender.port,
    secure: sender.port === 465,
    ...(sender.user !== '' && { auth: { user: sender.user, pass: sender.pass } }),
    pool: true,
    maxConnections: options.concurrency,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  });
  return new Mailer(transport, await HtmlPart.compile(), { from: sender.from, baseUrl }, log, observer, options);
}
