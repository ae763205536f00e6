import type { MailSender } from '../../mail/outbound/mailer.js';
import type { Notice } from '../../mail/outbound/notice.js';
import { errors } from '../../model/errors.js';
import { landingPaths, newMagicLink } from '../../model/magic-link.js';
import { nowSeconds } from '../../model/message.js';
import type { MagicLinkKind } from '../../store/auth-store.js';
import type { ServerContext } from '../context.js';
import { accounts } from './session.js';

/** Mail for the account API goes out only with an SMTP relay (ntfy's ensureEmailsEnabled: 404 otherwise). */
export function accountMailer(ctx: ServerContext): MailSender {
  accounts(ctx);
  if (!ctx.mailer) throw errors.notFound;
  return ctx.mailer;
}

/**
 * Stores a new link of `kind` for `username` (replacing the earlier one of its scope) and
 * mails it to `to`: for `email-verify` the address being verified, for `password-reset`
 * the user's primary one. The link needs base-url (50003 without, as ntfy).
 */
export async function mailLink(ctx: ServerContext, mailer: MailSender, kind: MagicLinkKind, username: string, to: string): Promise<void> {
  if (!ctx.config.baseUrl) throw errors.missingBaseUrl;
  const { token, link } = newMagicLink(kind, username, kind === 'email-verify' ? to : '', nowSeconds());
  await accounts(ctx).store.addMagicLink(link);
  mailer.sendNotice(notice(kind, to, `${ctx.config.baseUrl}${landingPaths[kind]}${token}`, new URL(ctx.config.baseUrl).host));
}

function notice(kind: MagicLinkKind, to: string, url: string, host: string): Notice {
  if (kind === 'email-verify') {
    return {
      to,
      subject: `Verify your e-mail address for ${host}`,
      text: `Someone, probably you, added this address to an account on ${host}. Open this link to verify it:\n\n${url}\n\nThe link works once, for 24 hours. If you did not ask for it, ignore this mail: the address stays unverified.`,
    };
  }
  return {
    to,
    subject: `Reset your password on ${host}`,
    text: `Someone, probably you, asked to reset the password of your account on ${host}. Open this link to choose a new one:\n\n${url}\n\nThe link works once, for 1 hour. If you did not ask for it, ignore this mail: your password stays as it is.`,
  };
}
