import { htmlToText } from 'html-to-text';
import { simpleParser } from 'mailparser';

/** Why a mail's content is refused: ntfy's words, sent back in the 554 reply. */
export class ContentRefusal extends Error {}

export interface MailContent {
  /** The decoded subject; '' when the subject became the message. */
  title: string;
  message: string;
}

/**
 * HTML-only mail as text: the words without markup, as ntfy's bluemonday strict policy
 * leaves them, but with entities decoded, blocks on lines of their own and no wrapping
 * (phones wrap). Link targets and images are dropped, as in ntfy.
 */
const htmlOptions = {
  wordwrap: false as const,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
  ],
};

const textTypes = new Set(['text/plain', 'text/html']);

/**
 * An e-mail (RFC 5322, MIME) as a message, by ntfy's rules (smtp_server.go readMailBody):
 * no Content-Type is plain text; text/plain and text/html are read (quoted-printable and
 * base64 decoded, and here also any charset); multipart mail gives its text/plain part, else
 * its text/html part; any other type is 'unsupported content type'. The body is trimmed
 * and cut to fit a message (fewer than `sizeLimit` bytes, at a character boundary: ntfy
 * cuts at exactly the limit, which its HTTP handler then takes for an attachment). A mail
 * with a subject and no body makes the subject the message.
 */
export async function readMail(raw: Buffer, sizeLimit: number): Promise<MailContent> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true, skipTextLinks: true });
  const type = (mail.headers.get('content-type') as { value?: string } | undefined)?.value?.toLowerCase() ?? 'text/plain';
  if (!textTypes.has(type) && !type.startsWith('multipart/')) throw new ContentRefusal('unsupported content type');
  let body = typeof mail.text === 'string' ? mail.text : '';
  // mailparser gives '' for a missing text part and an empty one alike; either way the HTML says more.
  if (body.trim() === '' && typeof mail.html === 'string') body = htmlToText(mail.html, htmlOptions);
  else if (mail.text === undefined && type.startsWith('multipart/')) throw new ContentRefusal('no text/plain or text/html part');
  const message = cut(body.trim(), sizeLimit - 1);
  const title = (mail.subject ?? '').trim();
  return message === '' ? { title: '', message: title } : { title, message };
}

/** The longest prefix of `text` of at most `bytes` UTF-8 bytes that ends between characters. */
function cut(text: string, bytes: number): string {
  const encoded = Buffer.from(text, 'utf8');
  if (encoded.length <= bytes) return text;
  let end = bytes;
  while (end > 0 && ((encoded[end] as number) & 0xc0) === 0x80) end--; // back off a continuation byte
  return encoded.subarray(0, end).toString('utf8');
}
