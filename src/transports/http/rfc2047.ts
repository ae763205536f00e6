import { TextDecoder } from 'node:util';

/**
 * RFC 2047 encoded-words in header values ("=?UTF-8?B?...?=", "=?UTF-8?Q?...?="), which
 * ntfy accepts for clients whose HTTP library cannot send UTF-8 headers. This follows
 * Go's mime.WordDecoder.DecodeHeader, which ntfy calls, scan for scan: a word runs from
 * `=?` to the next `?=` (its text may hold spaces), every word in the value is decoded and
 * the text around them kept, white space between two words is dropped, a word that does
 * not decode stays as it was, and an unknown charset leaves the whole value as sent.
 * (libmime's decodeWords differs on these edges, so ntfy's scan is written out here.)
 *
 * In time linear in the value's length: Go's scan looks for the closing `?=` afresh from
 * every `=?`, so `=?a?B?!` repeated made it quadratic (60 KB cost 1 s). Here the `?` and
 * `?=` found are kept and reused while they lie ahead of the scan (the first one at or past
 * a position stays the first one at or past any later position before it).
 */
export function decodeHeaderValue(raw: string): string {
  if (!raw.includes('=?')) return raw;
  const find = new Finder(raw);
  const decoders = new Map<string, TextDecoder | undefined>();
  let out = '';
  let at = 0; // everything before `at` is in `out`, or dropped white space between words
  let from = 0; // where to look for the next `=?`
  let betweenWords = false;
  for (;;) {
    const start = raw.indexOf('=?', from);
    if (start === -1) break;
    const word = readWord(raw, start, find);
    if (word === undefined) break;
    const bytes = word.encoding === 'B' ? decodeB(word.text) : word.encoding === 'Q' ? decodeQ(word.text) : undefined;
    if (bytes === undefined) {
      betweenWords = false;
      from = start + 2; // the failed word's `=?` is kept as text, from `at`
      continue;
    }
    if (start > at && (!betweenWords || /\S/.test(raw.slice(at, start)))) out += raw.slice(at, start);
    const text = decodeCharset(decoders, word.charset, bytes);
    if (text === undefined) return raw;
    out += text;
    at = from = word.end;
    betweenWords = true;
  }
  return out + raw.slice(at);
}

interface Word {
  charset: string;
  /** B or Q; anything else is not a word, as for Go. */
  encoding: string;
  text: string;
  /** Index just past the closing `?=`. */
  end: number;
}

/** The first `?` and `?=` at or past a position of one string, each stretch searched once. */
class Finder {
  // Infinity once there is none left, so no later position searches again.
  private question = -1;
  private close = -1;

  constructor(private readonly s: string) {}

  /** The index of the first `?` at or past `from`, or -1. */
  questionMark(from: number): number {
    if (this.question < from) this.question = this.next('?', from);
    return Number.isFinite(this.question) ? this.question : -1;
  }

  /** The index of the first `?=` at or past `from`, or -1. */
  closing(from: number): number {
    if (this.close < from) this.close = this.next('?=', from);
    return Number.isFinite(this.close) ? this.close : -1;
  }

  private next(needle: string, from: number): number {
    const i = this.s.indexOf(needle, from);
    return i === -1 ? Infinity : i;
  }
}

/** The word starting at `start` (`=?charset?X?text?=`), or undefined when the value has no complete one. */
function readWord(s: string, start: number, find: Finder): Word | undefined {
  let cur = start + 2;
  const q = find.questionMark(cur);
  if (q === -1) return undefined;
  const charset = s.slice(cur, q);
  cur = q + 1;
  if (s.length < cur + 4) return undefined;
  const encoding = (s[cur] as string).toUpperCase();
  if (s[cur + 1] !== '?') return undefined;
  cur += 2;
  const close = find.closing(cur);
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

/**
 * Bytes in the word's charset as text; undefined for a charset this runtime does not know.
 * Each charset's decoder is made once per value: thousands of empty words each made one.
 */
function decodeCharset(decoders: Map<string, TextDecoder | undefined>, charset: string, bytes: Buffer): string | undefined {
  if (!decoders.has(charset)) decoders.set(charset, decoderFor(charset));
  return decoders.get(charset)?.decode(bytes);
}

function decoderFor(charset: string): TextDecoder | undefined {
  try {
    // RFC 2231 allows a language after `*` (`UTF-8*en`).
    return new TextDecoder(charset.split('*')[0]);
  } catch {
    return undefined;
  }
}
