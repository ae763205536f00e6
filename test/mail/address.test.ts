import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { forwardAddress } from '../../src/mail/outbound/address.js';
import { HttpError } from '../../src/model/errors.js';
import { isTrueWord } from '../../src/transports/http/params.js';

const refusal = (value: string): string | undefined => {
  try {
    forwardAddress(value);
    return undefined;
  } catch (err) {
    assert.ok(err instanceof HttpError);
    return `${err.code} ${err.error}`;
  }
};

describe('mail out — the X-Email address', () => {
  it('one bare address is taken as it is', () => {
    for (const a of ['phil@example.com', 'first.last+tag@sub.example.co.uk', 'x@localhost', 'müller@bücher.de', "o'hara@example.com"]) assert.equal(forwardAddress(a), a);
  });

  it('yes/true/1 (the user\'s own address, resolved by the email-address guard) pass; anything but one address is 40050', () => {
    for (const own of ['yes', 'TRUE', '1']) assert.equal(forwardAddress(own), own);
    for (const bad of ['phil', '@example.com', 'phil@', 'Phil <phil@example.com>', 'a@example.com,b@example.com', 'a b@example.com', 'a@exa mple.com', 'a@-example.com', 'a@example..com', `${'a'.repeat(65)}@example.com`, 'a@b@c']) {
      assert.equal(refusal(bad), '40050 invalid request: invalid e-mail address', bad);
    }
  });

  it('property: an address with no space, bracket, comma or second @ and a domain of labels is taken; a true word passes; the rest refused with 40050', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.emailAddress()), (value) => {
        try {
          assert.equal(forwardAddress(value), value);
          if (isTrueWord(value)) return;
          assert.doesNotMatch(value, /[\s<>,;]/);
          assert.equal(value.split('@').length, 2);
        } catch (err) {
          assert.ok(err instanceof HttpError && err.code === 40050, String(err));
        }
      }),
    );
  });
});
