import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
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

  it('leaves a malformed word as it was', () => {
    assert.equal(decodeHeaderValue('=?x-unknown-charset?B?SGk=?='), '=?x-unknown-charset?B?SGk=?=');
    assert.equal(decodeHeaderValue('=?UTF-8?B?/w==?='), '=?UTF-8?B?/w==?=');
  });
});
