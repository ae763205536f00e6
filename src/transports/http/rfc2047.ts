/**
 * RFC 2047 encoded-words in header values ("=?UTF-8?B?...?=", "=?UTF-8?Q?...?="), which
 * ntfy accepts for clients whose HTTP library cannot send UTF-8 headers. This follows
 * Go's mime.WordDecoder.DecodeHeader, which ntfy calls, scan for scan: a word runs from
 * `=?` to the next `?=` (its text may hold spaces), every word in the value is decoded and
 * the text around them kept, white space between two words is dropped, a word that does
 * not decode stays as it was, and an unknown charset leaves the whole value as sent.
 * (libmime's decodeWords differs on these edges, so ntfy's scan is written out here.)
 */
export function decodeHeaderValue(raw: string): string {
  if (!raw.includes('=?')) return raw;
  let out = '';
  let rest = raw;
  let betweenWords = false;
  for (;;) {
    const start = rest.indexOf('=?');
    if (start === -1) break;
    const word = readWord(rest, start);
    if (word === undefined) break;
    const bytes = word.encoding === 'B' ? decodeB(word.text) : word.encoding === 'Q' ? decodeQ(word.text) : undefined;
    if (bytes === undefined) {
      betweenWords = false;
      out += rest.slice(0, start + 2);
      rest = rest.slice(start + 2);
      continue;
    }
    const before = rest.slice(0, start);
    if (start > 0 && (!betweenWords || /\S/.test(before))) out += before;
    const text = decodeCharset(word.charset, bytes);
    if (text === undefined) return raw;
    out += text;
    rest = rest.slice(word.end);
    betweenWords = true;
  }
  return out + rest;
}

interface Word {
  charset: string;
  /** B or Q; anything else is not a word, as for Go. */
  encoding: string;
  text: string;
  /** Index just past the closing `?=`. */
  end: number;
}

/** The word starting at `start` (`=?charset?X?text?=`), or undefined when the value has no complete one. */
function readWord(s: string, start: number): Word | undefined {
  let cur = start + 2;
  const q = s.indexOf('?', cur);
  if (q === -1) return undefined;
  const charset = s.slice(cur, q);
  cur = q + 1;
  if (s.length < cur + 4) return undefined;
  const encoding = (s[cur] as string).toUpperCase();
  if (s[cur + 1] !== '?') return undefined;
  cur += 2;
  const close = s.indexOf('?=', cur);
  if (close === -1) return undefined;
  return { charset, encoding, text: s.slice(cur, close), end: close + 2 };
}

const base64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** Standard base64 with padding, as Go's StdEncoding; undefined when invalid. */
function decodeB(text: string): Buffer | undefined {
  return base64.test(text) ? Buffer.from(text, 'base64') : undefined;
}

/** The "Q" encoding: `_` is a space, `=XX` a byte in hex, other printable ASCII itself. */
function decodeQ(text: string): Buffer | undefined {
  const bytes: number[] = [];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x5f) bytes.push(0x20);
    else if (c === 0x3d) {
      const hex = text.slice(i + 1, i + 3);
      if (!/^[0-9A-Fa-f]{2}$/.test(hex)) return undefined;
      bytes.push(parseInt(hex, 16));
      i += 2;
    } else if ((c >= 0x20 && c <= 0x7e) || c === 0x0a || c === 0x0d || c === 0x09) bytes.push(c);
    else return undefined;
  }
  return Buffer.from(bytes);
}

/** Bytes in the word's charset as text; undefined for a charset this runtime does not know. */
function decodeCharset(charset: string, bytes: Buffer): string | undefined {
  try {
    // RFC 2231 allows a language after `*` (`UTF-8*en`).
    return new TextDecoder(charset.split('*')[0]).decode(bytes);
  } catch {
    return undefined;
  }
}
