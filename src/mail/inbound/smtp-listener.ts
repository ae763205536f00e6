import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from 'smtp-server';
import { HttpError } from '../../model/errors.js';
import type { ServerContext } from '../../transports/context.js';
import type { RequestInfo } from '../../transports/http/request.js';
import { publishRequest } from '../../transports/publish/handler.js';
import { publishGuards } from '../../transports/routes.js';
import { ContentRefusal, readMail } from './read-mail.js';
import { parseRecipient, RecipientRefusal } from './recipient.js';

/** ntfy's MaxMessageBytes: far above message-size-limit, for headers, HTML and multipart. */
export const maxMailBytes = 1024 * 1024;

/** A reply with its code: smtp-server sends `responseCode message`. */
class Reply extends Error {
  constructor(
    readonly responseCode: number,
    message: string,
  ) {
    super(message);
  }
}

/** The SMTP AUTH PLAIN credentials of a session, kept by smtp-server as `session.user`. */
interface Login {
  username: string;
  password: string;
}

export interface SmtpListener {
  port: number;
  /** Stops accepting; sessions under way get `graceMs` to finish, then are cut. */
  close(): Promise<void>;
}

/**
 * ntfy's SMTP listener (smtp-server-listen): a mail to `<prefix><topic>[+<token>]@<domain>`
 * is published to the topic as an HTTP publish from the sending address would be — the
 * same gate (credentials from the token or AUTH PLAIN, the visitor limits of the client's
 * address, topic access), parsing and pipeline — and answered only once it is stored.
 * Replies are ntfy's (go-smtp's): 451 for a recipient refused, 554 for a mail refused at
 * DATA, `250 2.0.0 OK: queued` once published. There is no STARTTLS, as in ntfy, and
 * AUTH is accepted over plain text (AllowInsecureAuth): the credentials are checked at DATA.
 */
export function listenSmtp(ctx: ServerContext, closeTimeoutMs = 5_000): Promise<SmtpListener> {
  const settings = ctx.config.smtpServer;
  if (!settings) throw new Error('smtp-server-listen is not set');
  const log = ctx.log.child({ tag: 'smtp' });
  const server = new SMTPServer({
    name: settings.domain,
    banner: 'Service Ready',
    logger: false,
    authMethods: ['PLAIN'],
    authOptional: true,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    // Replies carry ntfy's enhanced codes in their text instead (4.0.0, 5.0.0).
    hideENHANCEDSTATUSCODES: true,
    size: maxMailBytes,
    rejectOversized: true,
    maxRecipients: 1,
    socketTimeout: 10_000,
    closeTimeout: closeTimeoutMs,
    onAuth: (auth, _session, callback) => callback(null, { user: { username: auth.username ?? '', password: auth.password ?? '' } satisfies Login }),
    onRcptTo: (address, _session, callback) => {
      try {
        parseRecipient(address.address, settings.domain, settings.addrPrefix);
        callback();
      } catch (err) {
        ctx.metrics?.mailReceived(false);
        log.debug({ smtp_rcpt_to: address.address, err }, 'recipient refused');
        callback(err instanceof RecipientRefusal ? new Reply(451, `4.0.0 ${err.message}`) : (err as Error));
      }
    },
    onData: (stream, session, callback) => {
      receive(ctx, stream, session).then(
        () => {
          ctx.metrics?.mailReceived(true);
          callback(null, '2.0.0 OK: queued');
        },
        (err: unknown) => {
          ctx.metrics?.mailReceived(false);
          log.debug({ smtp_mail_from: session.envelope.mailFrom || undefined, remote: session.remoteAddress, err }, 'mail refused');
          callback(replyTo(err));
        },
      );
    },
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(settings.listen.port, settings.listen.host || undefined, () => {
      server.off('error', reject);
      server.on('error', (err) => log.error({ err }, 'SMTP listener error'));
      const address = server.server.address();
      resolve({
        port: typeof address === 'object' && address ? address.port : settings.listen.port,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

/** Reads the mail and publishes it; rejects with what to answer. */
async function receive(ctx: ServerContext, stream: SMTPServerDataStream, session: SMTPServerSession): Promise<void> {
  const raw = await readAtMost(stream, maxMailBytes);
  if (stream.sizeExceeded) throw new Reply(552, '5.3.4 Max message size exceeded'); // smtp-server sends its own 552 (rejectOversized)
  const settings = ctx.config.smtpServer as NonNullable<typeof ctx.config.smtpServer>;
  const rcpt = session.envelope.rcptTo[0]?.address ?? '';
  const { topic, token } = parseRecipient(rcpt, settings.domain, settings.addrPrefix);
  const { title, message } = await readMail(raw, ctx.config.messageSizeLimit);
  const headers = new Map<string, string>();
  const login = session.user as Login | undefined;
  // As ntfy's fake request: the token in the address wins over AUTH PLAIN.
  if (token !== '') headers.set('authorization', `Bearer ${token}`);
  else if (login) headers.set('authorization', `Basic ${Buffer.from(`${login.username}:${login.password}`).toString('base64')}`);
  if (title !== '') headers.set('title', title);
  // The client's own address, never a forwarded one: its visitor limits apply.
  const req: RequestInfo = { method: 'POST', path: `/${topic}`, headers, query: new Map(), remoteAddress: session.remoteAddress, seen: {} };
  await publishRequest(ctx, req, topic, { bytes: Buffer.from(message, 'utf8'), truncated: false }, publishGuards);
}

/** The DATA bytes, at most `limit` of them kept (smtp-server flags a longer mail and refuses it). */
function readAtMost(stream: SMTPServerDataStream, limit: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    stream.on('data', (chunk: Buffer) => {
      if (size + chunk.length > limit) return;
      chunks.push(chunk);
      size += chunk.length;
    });
    stream.once('end', () => resolve(Buffer.concat(chunks, size)));
    stream.once('error', reject);
  });
}

/**
 * What a refused mail is answered: go-smtp's 554 with ntfy's reason (for a refused publish,
 * `error: ` and the error body an HTTP client would get). A server-side failure (a 5xx of
 * the publish: the cache full or unwritable) is 451 instead, so the sending server retries.
 */
function replyTo(err: unknown): Reply {
  const prefix = 'Error: transaction failed, blame it on the weather:';
  if (err instanceof HttpError) {
    return err.http >= 500 ? new Reply(451, `4.0.0 ${prefix} error: ${JSON.stringify(err)}`) : new Reply(554, `5.0.0 ${prefix} error: ${JSON.stringify(err)}`);
  }
  if (err instanceof ContentRefusal || err instanceof RecipientRefusal) return new Reply(554, `5.0.0 ${prefix} ${err.message}`);
  return new Reply(451, `4.0.0 ${prefix} ${err instanceof Error ? err.message : String(err)}`);
}
