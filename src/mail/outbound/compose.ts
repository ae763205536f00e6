import type { SendMailOptions } from 'nodemailer';
import type { Message } from '../../model/message.js';
import type { HtmlPart } from './html-part.js';
import { shortTopicUrl, subjectOf, textPart, type Origin } from './text-part.js';

/**
 * One forwarded message as a mail: ntfy's headers (From "host/topic" <smtp-sender-from>,
 * the message's time as Date, its subject) over multipart/alternative, ntfy's text
 * first and the HTML rendering second (clients show the last part they can).
 */
export function composeMail(m: Message, to: string, from: string, origin: Origin, html: HtmlPart): SendMailOptions {
  return {
    from: { name: shortTopicUrl(origin.topicUrl), address: from },
    to,
    subject: subjectOf(m),
    date: new Date(m.time * 1000),
    text: textPart(m, origin),
    html: html.render(m, origin),
  };
}
