import type { SendMailOptions } from 'nodemailer';

/**
 * A mail the server writes itself, to an account's address: a verification or password-reset
 * link (ntfy 2.25's SendEmailVerification, SendPasswordReset). Plain text, as ntfy's.
 */
export interface Notice {
  to: string;
  subject: string;
  text: string;
}

/** From the server's host name at smtp-sender-from (ntfy: "ntfy"), so the reader sees which server wrote. */
export function composeNotice(notice: Notice, from: string, baseUrl: string): SendMailOptions {
  return { from: { name: hostOf(baseUrl), address: from }, to: notice.to, subject: notice.subject, text: notice.text };
}

function hostOf(baseUrl: string): string {
  try {
    return new URL(baseUrl).host;
  } catch {
    return 'ntfy';
  }
}
