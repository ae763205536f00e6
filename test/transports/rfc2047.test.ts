import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { decodeHeaderValue } from '../../src/transports/http/rfc2047.js';

describe('rfc2047', () => {
  it('leaves plain and raw UTF-8 text alone', () => {
    assert.equal(decodeHeaderValue('Hello'), 'Hello');
    assert.equal(decodeHeaderValue('Grüße 👋'), 'Grüße 👋');
  });

  it('decodes base64 and quoted-printable words in any case', () => {
    assert.equal(decodeHeaderValue('=?UTF-8?B?8J+Riw==?='), '👋');
    assert.equal(decodeHeaderValue('=?utf-8?q?Gr=C3=BC=C3=9Fe_aus_Berlin?='), 'Grüße aus Berlin');
  });

  it('decodes latin-1 words', () => {
    assert.equal(decodeHeaderValue('=?ISO-8859-1?Q?caf=E9?='), 'café');
  });

  it('joins adjacent words without the whitespace between them, keeps surrounding text', () => {
    assert.equal(decodeHeaderValue('=?UTF-8?B?SGVs?= =?UTF-8?B?bG8=?='), 'Hello');
    assert.equal(decodeHeaderValue('Re: =?UTF-8?Q?caf=C3=A9?= today'), 'Re: café today');
  });

  it('leaves a malformed word as it was; an unknown charset leaves the whole value', () => {
    assert.equal(decodeHeaderValue('=?x-unknown-charset?B?SGk=?='), '=?x-unknown-charset?B?SGk=?=');
    assert.equal(decodeHeaderValue('a =?UTF-8?B?SGk=?= =?x-unknown?B?SGk=?='), 'a =?UTF-8?B?SGk=?= =?x-unknown?B?SGk=?=');
    assert.equal(decodeHeaderValue('=?UTF-8?B?SGk?= x'), '=?UTF-8?B?SGk?= x'); // base64 without padding, as Go's StdEncoding
    assert.equal(decodeHeaderValue('=?UTF-8?X?SGk=?='), '=?UTF-8?X?SGk=?=');
    assert.equal(decodeHeaderValue('=?UTF-8?Q?a=?='), '=?UTF-8?Q?a=?=');
    assert.equal(decodeHeaderValue('=?UTF-8?Q?no end'), '=?UTF-8?Q?no end');
  });

  it('invalid UTF-8 in a word becomes U+FFFD, as Go writes it', () => {
    assert.equal(decodeHeaderValue('=?UTF-8?B?/w==?='), '\uFFFD');
  });

  it('as Go: words whose text holds spaces, several words among text', () => {
    assert.equal(
      decodeHeaderValue('ntfy 很棒, no really I mean it! =?UTF-8?Q?This is q=C3=BC=C3=B6ted-print=C3=A4ble.?='),
      'ntfy 很棒, no really I mean it! This is qüöted-printäble.',
    );
    assert.equal(decodeHeaderValue('=?utf-8?q?Mettre =C3=A0 jour?='), 'Mettre à jour');
    assert.equal(decodeHeaderValue('=?UTF-8?Q?a?= b =?UTF-8?Q?c?= \t =?UTF-8?Q?d?='), 'a b cd');
    assert.equal(decodeHeaderValue('=?UTF-8?Q?bad=ZZ?= =?UTF-8?Q?ok?='), '=?UTF-8?Q?bad=ZZ?= ok');
  });
});

describe('rfc2047 — properties', () => {
  const encodeB = (s: string): string => `=?UTF-8?B?${Buffer.from(s).toString('base64')}?=`;
  const encodeQ = (s: string): string =>
    `=?UTF-8?Q?${[...Buffer.from(s)].map((b) => (b > 0x20 && b < 0x7f && b !== 0x3d && b !== 0x3f && b !== 0x5f ? String.fromCharCode(b) : `=${b.toString(16).padStart(2, '0')}`)).join('')}?=`;

  it('never throws, and a value without "=?" comes back as it is', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => {
      const out = decodeHeaderValue(s);
      if (!s.includes('=?')) assert.equal(out, s);
    }));
    fc.assert(fc.property(fc.stringMatching(/^(=\?|\?=|[?=BQbq_ a-z0-9]|=[0-9A-F]{2})*$/), (s) => void decodeHeaderValue(s)));
  });

  it('any text encoded as one B or Q word decodes to itself', () => {
    fc.assert(fc.property(fc.string({ unit: 'grapheme' }), (s) => {
      assert.equal(decodeHeaderValue(encodeB(s)), s);
      assert.equal(decodeHeaderValue(encodeQ(s)), s);
    }));
  });

  it('text between words is kept unless it is only white space', () => {
    const plain = fc.stringMatching(/^[a-z ]{0,8}$/);
    fc.assert(fc.property(fc.string({ unit: 'grapheme', maxLength: 8 }), plain, fc.string({ unit: 'grapheme', maxLength: 8 }), (a, between, b) => {
      const expected = between.trim() === '' ? a + b : a + between + b;
      assert.equal(decodeHeaderValue(encodeB(a) + between + encodeQ(b)), expected);
    }));
  });
});

/**
 * The decoder as it was before it became linear (Go's scan, word by word from each `=?`),
 * kept here only as the reference the linear one must agree with.
 */
function quadraticReference(raw: string): string {
  let out = '';
  let rest = raw;
  let betweenWords = false;
  for (;;) {
    const start = rest.indexOf('=?');
    if (start === -1) break;
    const q = rest.indexOf('?', start + 2);
    if (q === -1 || rest.length < q + 5 || rest[q + 2] !== '?') break;
    const close = rest.indexOf('?=', q + 3);
    if (close === -1) break;
    const [charset, encoding, text] = [rest.slice(start + 2, q), (rest[q + 1] as string).toUpperCase(), rest.slice(q + 3, close)];
    const bytes = encoding === 'B' ? referenceB(text) : encoding === 'Q' ? referenceQ(text) : undefined;
    if (bytes === undefined) {
      betweenWords = false;
      out += rest.slice(0, start + 2);
      rest = rest.slice(start + 2);
      continue;
    }
    const before = rest.slice(0, start);
    if (start > 0 && (!betweenWords || /\S/.test(before))) out += before;
    let decoded: string;
    try {
      decoded = new TextDecoder(charset.split('*')[0]).decode(bytes);
    } catch {
      return raw;
    }
    out += decoded;
    rest = rest.slice(close + 2);
    betweenWords = true;
  }
  return out + rest;
}

const referenceB = (text: string): Buffer | undefined => (/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text) ? Buffer.from(text, 'base64') : undefined);

/** Q as a regex over the whole text: `_`, `=XX` or printable ASCII and tab/CR/LF only. */
function referenceQ(text: string): Buffer | undefined {
  if (!/^(?:=[0-9A-Fa-f]{2}|[\x20-\x3c\x3e-\x7e\t\r\n])*$/.test(text)) return undefined;
  return Buffer.from(text.replace(/_|=([0-9A-Fa-f]{2})/g, (m, hex?: string) => (hex === undefined ? ' ' : String.fromCharCode(parseInt(hex, 16)))), 'latin1');
}

describe('rfc2047 — linear decoding', () => {
  it('agrees with the quadratic reference on short values built from word parts', () => {
    const part = fc.oneof(
      fc.constantFrom('=?', '?=', '?', '=', ' ', '\t', '_', 'B', 'Q', 'b', 'q', 'UTF-8', 'utf-8', 'x-bad', 'latin1', '*en', 'SGk=', '8J+Riw==', '=C3=A9', '=ZZ', 'a', '!'),
      fc.string({ maxLength: 3 }),
    );
    fc.assert(fc.property(fc.array(part, { maxLength: 24 }).map((p) => p.join('')), (value) => {
      assert.equal(decodeHeaderValue(value), quadraticReference(value), JSON.stringify(value));
    }), { numRuns: 3000 });
  });

  it('agrees with the reference on the examples above', () => {
    for (const value of ['=?UTF-8?B?SGVs?= =?UTF-8?B?bG8=?=', '=?UTF-8?Q?bad=ZZ?= =?UTF-8?Q?ok?=', 'a =?UTF-8?B?SGk=?= =?x-unknown?B?SGk=?=', '=?a?B?!=?UTF-8?Q?x?=']) {
      assert.equal(decodeHeaderValue(value), quadraticReference(value), value);
    }
  });

  /** The fastest of seven decodes of `value`, in ms: the least disturbed by the tests running beside it. */
  const fastestMs = (value: string): number => {
    const times = Array.from({ length: 7 }, () => {
      const t = performance.now();
      decodeHeaderValue(value);
      return performance.now() - t;
    });
    return Math.min(...times);
  };

  it('60 KB hostile values decode in milliseconds, and 4x the length costs about 4x the time', () => {
    const hostile: Record<string, (kb: number) => string> = {
      'words never closed but at the end': (kb) => `${'=?a?B?!'.repeat((kb * 1024) / 7)}?=`,
      'openings only': (kb) => '=?'.repeat((kb * 1024) / 2),
      'empty words': (kb) => '=?utf-8?B??='.repeat((kb * 1024) / 12),
      'Q words failing at the next opening': (kb) => `${'=?a?Q?x'.repeat((kb * 1024) / 7)}?=`,
    };
    for (const [name, make] of Object.entries(hostile)) {
      fastestMs(make(15)); // warm up
      const [small, large] = [fastestMs(make(15)), fastestMs(make(60))];
      // Quadratic was 1 s at 60 KB and 16x the 15 KB time; linear is a few ms and ~4x
      // (a floor of 20 ms: a fraction of a millisecond at 15 KB times 10 is within noise).
      assert.ok(large < 300, `${name}: ${large.toFixed(1)} ms at 60 KB`);
      assert.ok(large < Math.max(10 * small, 20), `${name}: ${small.toFixed(2)} ms at 15 KB, ${large.toFixed(2)} ms at 60 KB`);
    }
  });
});
