import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { forwardAddress } from '../../src/mail/outbound/address.js';
import { HttpError } from '../../src/model/errors.js';

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

  it('yes/true/1 (a verified address) and anything but one address are 40000', () => {
    assert.equal(refusal('yes'), '40000 invalid request; no verified e-mail address (this server verifies none)');
    assert.equal(refusal('TRUE'), '40000 invalid request; no verified e-mail address (this server verifies none)');
    for (const bad of ['phil', '@example.com', 'phil@', 'Phil <phil@example.com>', 'a@example.com,b@example.com', 'a b@example.com', 'a@exa mple.com', 'a@-example.com', 'a@example..com', `${'a'.repeat(65)}@example.com`, 'a@b@c']) {
      assert.equal(refusal(bad), '40000 invalid request; e-mail address invalid', bad);
    }
  });

  it('property: an address with no space, bracket, comma or second @ and a domain of labels is taken; the rest refused with 40000', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.emailAddress()), (value) => {
        try {
          assert.equal(forwardAddress(value), value);
          assert.doesNotMatch(value, /[\s<>,;]/);
          assert.equal(value.split('@').length, 2);
        } catch (err) {
          assert.ok(err instanceof HttpError && err.code === 40000, String(err));
        }
      }),
    );
  });
});
