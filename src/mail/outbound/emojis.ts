import { nameToEmoji } from 'gemoji';

/**
 * Tags that name an emoji (GitHub's short codes, gemoji: the same list ntfy's
 * mailer_emoji_map.json and its apps use) become the emoji; the others stay words.
 */
export function splitTags(tags: readonly string[] = []): { emojis: string[]; words: string[] } {
  const emojis: string[] = [];
  const words: string[] = [];
  for (const tag of tags) {
    // An own property only: `constructor` is a tag, not Object.prototype's.
    const emoji = Object.hasOwn(nameToEmoji, tag) ? nameToEmoji[tag] : undefined;
    if (emoji === undefined) words.push(tag);
    else emojis.push(emoji);
  }
  return { emojis, words };
}
