/**
 * RFC 2047 encoded-words in header values ("=?UTF-8?B?...?=", "=?UTF-8?Q?...?="), which
 * ntfy accepts for clients whose HTTP library cannot send UTF-8 headers. Text around the
 * words is kept; whitespace between two adjacent words is dropped (RFC 2047 §6.2); a word
 * that does not decode is left as it was.
 */
const encodedWord = /=\?([^?\s]+)\?([BbQq])\?([^?\s]*)\?=/g;
const betweenWords = /(=\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)\s+(?==\?[^?\s]+\?[BbQq]\?[^?\s]*\?=)/g;

export function decodeHeaderValue(raw: string): string {
  if (!raw.includes('=?')) return raw;
  return raw.replace(betweenWords, '$1').replace(encodedWord, (word, charset: string, encoding: string, text: string) => {
    try {
      const bytes = encoding.toUpperCase() === 'B' ? Buffer.from(text, 'base64') : decodeQ(text);
      return new TextDecoder(charset.split('*')[0], { fatal: true }).decode(bytes);
    } catch {
      return word;
    }
  });
}

/** The "Q" encoding: `_` is a space, `=XX` a byte in hex. */
function decodeQ(text: string): Buffer {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text[i] as string;
    if (c === '_') bytes.push(0x20);
    else if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(text.slice(i + 1, i + 3))) {
      bytes.push(parseInt(text.slice(i + 1, i + 3), 16));
      i += 2;
    } else bytes.push(c.charCodeAt(0));
  }
  return Buffer.from(bytes);
}
