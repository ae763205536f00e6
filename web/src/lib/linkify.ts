/**
 * URLs written in a plain-text message: http(s) and mailto only, the schemes safe to link
 * to (links.ts). Trailing punctuation ends a sentence rather than the URL, as in
 * "see https://example.com/a." or "(https://example.com)".
 */
const urlInText = /\b(?:https?:\/\/|mailto:)[^\s<>"]+/gi;
const trailing = /[.,;:!?)\]'}]+$/;

export type TextPart = { text: string; href?: string };

/** The text cut into plain parts and URL parts (each with its href), in order. */
export function linkify(text: string): TextPart[] {
  const parts: TextPart[] = [];
  let at = 0;
  for (const match of text.matchAll(urlInText)) {
    const url = match[0].replace(trailing, '');
    // A bare scheme ("https://" or "mailto:") is no link.
    if (/^(?:https?:\/\/|mailto:)$/i.test(url)) continue;
    if (match.index > at) parts.push({ text: text.slice(at, match.index) });
    parts.push({ text: url, href: url });
    at = match.index + url.length;
  }
  if (at < text.length) parts.push({ text: text.slice(at) });
  return parts;
}
