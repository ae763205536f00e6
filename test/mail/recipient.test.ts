import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { parseRecipient, RecipientRefusal } from '../../src/mail/inbound/recipient.js';

const refused = (address: string, prefix = 'ntfy-'): string => {
  try {
    parseRecipient(address, 'ntfy.sh', prefix);
  } catch (err) {
    assert.ok(err instanceof RecipientRefusal);
    return err.message;
  }
  return 'accepted';
};

describe('mail in — recipient', () => {
  it('<prefix><topic>@<domain> and <prefix><topic>+<token>@<domain>', () => {
    assert.deepEqual(parseRecipient('ntfy-mytopic@ntfy.sh', 'ntfy.sh', 'ntfy-'), { topic: 'mytopic', token: '' });
    assert.deepEqual(parseRecipient('ntfy-mytopic+tk_abc@ntfy.sh', 'ntfy.sh', 'ntfy-'), { topic: 'mytopic', token: 'tk_abc' });
    assert.deepEqual(parseRecipient('My-Topic_1@NTFY.sh', 'ntfy.sh', ''), { topic: 'My-Topic_1', token: '' }, 'domains compare case-insensitively, topics keep their case');
    assert.deepEqual(parseRecipient('ntfy-t+tk_a+more@ntfy.sh', 'ntfy.sh', 'ntfy-'), { topic: 't', token: 'tk_a' }, 'as ntfy: between the first and a second +');
    assert.deepEqual(parseRecipient('ntfy-t+@ntfy.sh', 'ntfy.sh', 'ntfy-'), { topic: 't', token: '' });
  });

  it('refusals in ntfy\'s words', () => {
    assert.equal(refused('ntfy-mytopic@example.com'), 'invalid domain');
    assert.equal(refused('ntfy-mytopic@sub.ntfy.sh'), 'invalid domain');
    assert.equal(refused('ntfy-mytopic'), 'invalid domain');
    assert.equal(refused('mytopic@ntfy.sh'), 'invalid address');
    assert.equal(refused('NTFY-mytopic@ntfy.sh'), 'invalid address', 'the prefix is exact, as in ntfy');
    assert.equal(refused('ntfy-@ntfy.sh'), 'invalid topic');
    assert.equal(refused('ntfy-my.topic@ntfy.sh'), 'invalid topic');
    assert.equal(refused(`ntfy-${'a'.repeat(65)}@ntfy.sh`), 'invalid topic');
    assert.equal(refused('ntfy-+tk_x@ntfy.sh'), 'invalid topic');
    assert.equal(refused('a@b@ntfy.sh', ''), 'invalid topic');
  });

  it('property: any address is a topic of ntfy\'s rule or a refusal, nothing else', () => {
    const local = fc.oneof(fc.string(), fc.stringMatching(/^(ntfy-)?[-_A-Za-z0-9+.@]{0,70}$/));
    fc.assert(
      fc.property(local, fc.constantFrom('ntfy.sh', 'NTFY.SH', 'example.com', ''), fc.constantFrom('', 'ntfy-'), (l, d, prefix) => {
        try {
          const { topic, token } = parseRecipient(`${l}@${d}`, 'ntfy.sh', prefix);
          assert.match(topic, /^[-_A-Za-z0-9]{1,64}$/);
          assert.ok(!token.includes('+'));
          assert.ok(`${l}`.startsWith(`${prefix}${topic}`));
        } catch (err) {
          assert.ok(err instanceof RecipientRefusal, String(err));
        }
      }),
    );
  });
});
