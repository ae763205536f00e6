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
