import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { callTwiml, compileCallFormat, xmlText } from '../../src/calls/twiml.js';
import type { Message } from '../../src/model/message.js';
import { TemplateError } from '../../src/template/index.js';

const message = (fields: Partial<Message>): Message => ({ id: 'abcdefghijkl', time: 1700000000, event: 'message', topic: 'alerts', ...fields });

/** ntfy's default TwiML with the three strings put in, as ntfy's server_twilio_test.go expects it. */
const ntfyDefault = (topic: string, text: string, sender: string): string =>
  '\n<Response>\n\t<Pause length="1"/>\n\t<Say loop="3">\n' +
  `\t\tYou have a message from notify on topic ${topic}. Message:\n\t\t<break time="1s"/>\n` +
  `\t\t${text}\n\t\t<break time="1s"/>\n\t\tEnd of message.\n\t\t<break time="1s"/>\n` +
  `\t\tThis message was sent by user ${sender}. It will be repeated three times.\n` +
  '\t\tTo unsubscribe from calls like this, remove your phone number in the notify web app.\n\t\t<break time="3s"/>\n' +
  '\t</Say>\n\t<Say>Goodbye.</Say>\n</Response>';

describe('calls — TwiML', () => {
  it('escapes text as Go\'s xml.EscapeText (ntfy\'s xmlEscapeText), output taken from Go 1.24', () => {
    assert.equal(xmlText('a<b>&"\'\t\n\r\x01 😀 \uFFFE ok'), 'a&lt;b&gt;&amp;&#34;&#39;&#x9;&#xA;&#xD;\uFFFD 😀 \uFFFD ok');
    assert.equal(xmlText('lone \uD800 surrogate'), 'lone \uFFFD surrogate');
    assert.equal(xmlText(''), '');
  });

  it('unset twilio-call-format is ntfy\'s call text: topic, message and sender escaped into it, read three times, then goodbye', () => {
    const twiml = callTwiml(compileCallFormat(''), message({ message: 'Fire <in> the "garage"' }), 'phil & co');
    assert.equal(twiml, ntfyDefault('alerts', 'Fire &lt;in&gt; the &#34;garage&#34;', 'phil &amp; co'));
  });

  it('the sender is whatever the publisher is known by: a user\'s name or an IP address', () => {
    const format = compileCallFormat('<Response><Say>{{.Sender}}</Say></Response>');
    assert.equal(callTwiml(format, message({}), 'phil'), '<Response><Say>phil</Say></Response>');
    assert.equal(callTwiml(format, message({}), '2001:db8::1'), '<Response><Say>2001:db8::1</Say></Response>');
  });

  it('a custom format sees Topic, Title, Message, Priority (a Go int, 0 when unset) and Tags ([]string)', () => {
    const format = compileCallFormat(
      '<Response><Say>{{.Title}} on {{.Topic}}, priority {{.Priority}}{{if gt .Priority 3}} (urgent){{end}}: {{.Message}}; tags {{.Tags}}, first {{index .Tags 0}}, {{len .Tags}} in all</Say></Response>',
    );
    const full = message({ title: 'Disk full', message: 'sda1 at 99%', priority: 5, tags: ['warning', 'disk'] });
    assert.equal(callTwiml(format, full, 'phil'), '<Response><Say>Disk full on alerts, priority 5 (urgent): sda1 at 99%; tags [warning disk], first warning, 2 in all</Say></Response>');
    const bare = compileCallFormat('<Say>[{{.Title}}] {{.Priority}} {{.Tags}} {{printf "%T %T" .Priority .Tags}}</Say>');
    assert.equal(callTwiml(bare, message({ message: 'x' }), 'phil'), '<Say>[] 0 [] int []string</Say>');
  });

  it('hostile title, message, tags and sender stay text: no markup, no CDATA end, no entity of their own gets through', () => {
    const format = compileCallFormat('<Response><Say>{{.Title}}|{{.Message}}|{{range .Tags}}{{.}},{{end}}|{{.Sender}}</Say></Response>');
    const hostile = message({
      title: '</Say><Hangup/><Say>',
      message: '<![CDATA[ x ]]> &amp; &#x41; <Dial>+15550001111</Dial>',
      tags: ['a<b', ']]>', '&'],
    });
    const twiml = callTwiml(format, hostile, '"><Reject/>');
    assert.equal(
      twiml,
      '<Response><Say>&lt;/Say&gt;&lt;Hangup/&gt;&lt;Say&gt;|&lt;![CDATA[ x ]]&gt; &amp;amp; &amp;#x41; &lt;Dial&gt;+15550001111&lt;/Dial&gt;|a&lt;b,]]&gt;,&amp;,|&#34;&gt;&lt;Reject/&gt;</Say></Response>',
    );
    assert.doesNotMatch(twiml, /]]>|<Hangup|<Dial|<Reject/);
  });

  it('a format that does not parse, or that ntfy\'s templates refuse, is a TemplateError naming the spot', () => {
    assert.throws(() => compileCallFormat('<Say>{{.Message</Say>'), (e: unknown) => e instanceof TemplateError && /^template: twiml:1:/.test(e.message));
    assert.throws(() => compileCallFormat('<Say>{{.Message | nosuchfunc}}</Say>'), (e: unknown) => e instanceof TemplateError && /"nosuchfunc" not defined/.test(e.message));
    assert.throws(() => compileCallFormat('{{define "x"}}{{end}}'), (e: unknown) => e instanceof TemplateError && e.code === 'disallowed');
  });

  it('a format that parses but fails on a message throws at render', () => {
    const format = compileCallFormat('<Say>{{index .Tags 3}}</Say>');
    assert.throws(() => callTwiml(format, message({ tags: ['one'] }), 'phil'), TemplateError);
  });
});
