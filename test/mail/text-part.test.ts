import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { splitTags } from '../../src/mail/outbound/emojis.js';
import { subjectOf, textPart } from '../../src/mail/outbound/text-part.js';
import type { Message } from '../../src/model/message.js';

/** ntfy's formatMail expectations (server/smtp_sender_test.go), the body below the headers. */

const origin = { topicUrl: 'https://ntfy.sh/alerts', senderIp: '1.2.3.4' };
const base: Message = { id: 'abc', time: 1640382204, event: 'message', topic: 'alerts', message: 'A simple message' };
const footer = '\n\n--\nThis message was sent by 1.2.3.4 at Fri, 24 Dec 2021 21:43:24 UTC via https://ntfy.sh/alerts';

describe('mail out — subject and text part as ntfy', () => {
  it('basic: the message is the subject and the body', () => {
    assert.equal(subjectOf(base), 'A simple message');
    assert.equal(textPart(base, origin), `A simple message${footer}`);
  });

  it('emoji tags go before the subject, the other tags and a priority other than default below the message', () => {
    assert.equal(subjectOf({ ...base, tags: ['grinning'] }), '😀 A simple message');
    assert.equal(textPart({ ...base, tags: ['grinning'] }, origin), `A simple message${footer}`);
    assert.equal(textPart({ ...base, tags: ['not-an-emoji'] }, origin), `A simple message\n\nTags: not-an-emoji${footer}`);
    assert.equal(textPart({ ...base, priority: 2 }, origin), `A simple message\n\nPriority: low${footer}`);
    assert.equal(textPart({ ...base, priority: 3 }, origin), `A simple message${footer}`);
  });

  it('with all the things: a multi-line title on one line', () => {
    const m: Message = { ...base, priority: 5, tags: ['warning', 'skull', 'tag123', 'other'], title: 'Oh no 🙈\nThis is a message across\nmultiple lines', message: 'A message that contains monkeys 🙉\nNo really, though. Monkeys!' };
    assert.equal(subjectOf(m), '⚠️ 💀 Oh no 🙈 This is a message across multiple lines');
    assert.equal(textPart(m, origin), `A message that contains monkeys 🙉\nNo really, though. Monkeys!\n\nTags: tag123, other\nPriority: max${footer}`);
  });

  it('tags: only gemoji names are emojis, Object.prototype\'s are words', () => {
    assert.deepEqual(splitTags(['+1', 'tada', 'constructor', '__proto__', 'Tada']), { emojis: ['👍', '🎉'], words: ['constructor', '__proto__', 'Tada'] });
  });
});
