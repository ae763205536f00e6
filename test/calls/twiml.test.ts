import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callTwiml, xmlText } from '../../src/calls/twiml.js';

describe('calls — TwiML', () => {
  it('escapes text as Go\'s xml.EscapeText (ntfy\'s xmlEscapeText), output taken from Go 1.24', () => {
    assert.equal(xmlText('a<b>&"\'\t\n\r\x01 😀 \uFFFE ok'), 'a&lt;b&gt;&amp;&#34;&#39;&#x9;&#xA;&#xD;\uFFFD 😀 \uFFFD ok');
    assert.equal(xmlText('lone \uD800 surrogate'), 'lone \uFFFD surrogate');
    assert.equal(xmlText(''), '');
  });

  it('is ntfy\'s call text: topic, message and sender escaped into it, read three times, then goodbye', () => {
    const twiml = callTwiml('alerts', 'Fire <in> the "garage"', 'phil & co');
    assert.equal(
      twiml,
      '\n<Response>\n\t<Pause length="1"/>\n\t<Say loop="3">\n' +
        '\t\tYou have a message from notify on topic alerts. Message:\n\t\t<break time="1s"/>\n' +
        '\t\tFire &lt;in&gt; the &#34;garage&#34;\n\t\t<break time="1s"/>\n\t\tEnd of message.\n\t\t<break time="1s"/>\n' +
        '\t\tThis message was sent by user phil &amp; co. It will be repeated three times.\n' +
        '\t\tTo unsubscribe from calls like this, remove your phone number in the notify web app.\n\t\t<break time="3s"/>\n' +
        '\t</Say>\n\t<Say>Goodbye.</Say>\n</Response>',
    );
  });
});
