import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { linkLifetimeSeconds, newMagicLink, opens, selectorOf } from '../../src/model/magic-link.js';

const now = 1_800_000_000;

describe('magic links — tokens', () => {
  it('a new token: 44 URL-safe characters, its selector the stored link\'s, only the digest of its secret stored; it opens its link until it expires', () => {
    const { token, link } = newMagicLink('email-verify', 'ben', 'ben@example.com', now);
    assert.match(token, /^[-_A-Za-z0-9]{44}$/);
    assert.equal(selectorOf(token), link.selector);
    assert.match(link.hash, /^[0-9a-f]{64}$/);
    assert.ok(!token.includes(link.hash) && !link.hash.includes(token.slice(12)));
    assert.deepEqual([link.username, link.email, link.expires], ['ben', 'ben@example.com', now + linkLifetimeSeconds['email-verify']]);
    assert.equal(opens(token, link, 'email-verify', now), true);
    assert.equal(opens(token, link, 'email-verify', link.expires), true, 'the last second still counts');
    assert.equal(opens(token, link, 'email-verify', link.expires + 1), false, 'expired');
    assert.equal(opens(token, link, 'password-reset', now), false, 'another kind');
    assert.equal(opens(token, undefined, 'email-verify', now), false);
    assert.equal(newMagicLink('password-reset', 'ben', '', now).link.expires, now + 3600);
  });

  it('two tokens never share a selector or a secret (CSPRNG)', () => {
    const tokens = Array.from({ length: 1000 }, () => newMagicLink('password-reset', 'ben', '', now).token);
    assert.equal(new Set(tokens.map((t) => t.slice(0, 12))).size, 1000);
    assert.equal(new Set(tokens.map((t) => t.slice(12))).size, 1000);
  });

  it('property: any other string opens nothing, and only well-formed tokens have a selector', () => {
    const { token, link } = newMagicLink('email-verify', 'ben', 'ben@example.com', now);
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ minLength: 44, maxLength: 44 }), fc.string({ minLength: 32, maxLength: 32 }).map((s) => token.slice(0, 12) + s)), (guess) => {
        fc.pre(guess !== token);
        assert.equal(opens(guess, link, 'email-verify', now), false);
        const selector = selectorOf(guess);
        if (selector !== undefined) assert.match(guess, /^[-_A-Za-z0-9]{44}$/);
      }),
    );
  });
});
