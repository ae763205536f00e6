import mjml2html from 'mjml';
import Mustache from 'mustache';
import type { Action } from '../../model/action.js';
import type { Attachment, Message } from '../../model/message.js';
import { splitTags } from './emojis.js';
import { markdownHtml } from './markdown.js';
import { notificationMjml } from './notification-mjml.js';
import { priorityNames, sentAt, subjectOf, type Origin } from './text-part.js';

const priorityColors = ['', '#7b8794', '#7b8794', '#52606d', '#c65d07', '#c81e1e'];

/** Links a mail may carry: the web's and mailto:. A view action to geo: or an app's scheme only works in the app. */
const linkable = /^(?:https?|mailto):/i;

/**
 * The HTML part, from the MJML template compiled once (MJML takes ~50 ms a compile; a mail
 * then costs one Mustache render of the compiled HTML, whose parsed form Mustache keeps).
 */
export class HtmlPart {
  private constructor(private readonly html: string) {
    Mustache.parse(html);
  }

  static async compile(mjml = notificationMjml): Promise<HtmlPart> {
    const { html, errors: problems } = await mjml2html(mjml, { validationLevel: 'strict' });
    if (problems.length > 0) throw new Error(`the mail template is not valid MJML: ${problems.map((e) => e.formattedMessage).join('; ')}`);
    return new HtmlPart(html);
  }

  render(m: Message, origin: Origin): string {
    const { emojis, words } = splitTags(m.tags);
    const text = m.message ?? '';
    const buttons = [...(m.click && linkable.test(m.click) ? [{ label: 'Open link', url: m.click }] : []), ...viewButtons(m.actions)];
    const title = m.title ?? '';
    const view = {
      subject: subjectOf(m),
      preview: title && text.slice(0, 140),
      topicName: origin.topicUrl.replace(/^https?:\/\//, ''),
      heading: [...emojis, title].filter((s) => s !== '').join(' '),
      messageHtml: m.content_type === 'text/markdown' ? markdownHtml(text) : Mustache.escape(text).replaceAll('\n', '<br>'),
      priority: m.priority !== undefined && m.priority !== 3 ? { name: priorityNames[m.priority]?.toUpperCase(), color: priorityColors[m.priority] } : undefined,
      hasWords: words.length > 0,
      words,
      attachment: attachmentView(m.attachment),
      hasButtons: buttons.length > 0,
      buttons,
      senderIp: origin.senderIp,
      sentAt: sentAt(m.time),
      topicUrl: origin.topicUrl,
    };
    return Mustache.render(this.html, view);
  }
}

/** View actions open a URL: in a mail, a link. http and broadcast actions need the app, so they are left out. */
function viewButtons(actions: readonly Action[] = []): { label: string; url: string }[] {
  return actions.filter((a) => a.action === 'view' && a.url !== undefined && linkable.test(a.url)).map((a) => ({ label: a.label, url: a.url as string }));
}

function attachmentView(a: Attachment | undefined): { name: string; url: string; size: string | undefined } | undefined {
  if (!a || !linkable.test(a.url)) return undefined;
  return { name: a.name, url: a.url, size: a.size === undefined ? undefined : humanSize(a.size) };
}

function humanSize(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}
