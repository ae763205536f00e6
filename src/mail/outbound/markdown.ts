import MarkdownIt from 'markdown-it';

/**
 * Markdown as the web app shows it, for the HTML mail. Raw HTML in the message is
 * escaped, not passed on (`html: false`), and markdown-it refuses javascript:, vbscript:
 * and data: links other than images, so a message cannot put markup or script in a mail.
 */
const md = new MarkdownIt({ html: false, linkify: true });

export function markdownHtml(text: string): string {
  return md.render(text);
}
