import names from 'virtual:emoji-names';

/**
 * Tags that name an emoji become the emoji (shown before the title, as ntfy's apps do); the
 * others stay words. The same split as the server's mails (src/mail/outbound/emojis.ts).
 */
export function splitTags(tags: readonly string[] = []): { emojis: string[]; words: string[] } {
  const emojis: string[] = [];
  const words: string[] = [];
  for (const tag of tags) {
    const emoji = Object.hasOwn(names, tag) ? names[tag] : undefined;
    if (emoji === undefined) words.push(tag);
    else emojis.push(emoji);
  }
  return { emojis, words };
}
