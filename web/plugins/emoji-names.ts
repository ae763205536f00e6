import { nameToEmoji } from 'gemoji';
import type { Plugin } from 'vite';

const id = 'virtual:emoji-names';

/**
 * `import names from 'virtual:emoji-names'`: gemoji's short code → emoji map alone (about
 * 40 KB), the list the server's mails and ntfy's apps use, without the 350 KB of
 * descriptions and categories the package also ships.
 */
export function emojiNames(): Plugin {
  return {
    name: 'tocsin-emoji-names',
    resolveId: (source) => (source === id ? `\0${id}` : undefined),
    load: (resolved) => (resolved === `\0${id}` ? `export default ${JSON.stringify(nameToEmoji)};` : undefined),
  };
}
