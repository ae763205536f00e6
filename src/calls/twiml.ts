import type { Message } from '../model/message.js';
import { compile, typedArray, type Template } from '../template/index.js';

/**
 * What a call says unless twilio-call-format says otherwise: ntfy's TwiML
 * (server_twilio.go's defaultTwilioCallFormatTemplate) word for word, so a call from Tocsin
 * sounds as one from ntfy — an English announcement naming the topic, the message, the
 * sender, read three times (`loop="3"`), then a goodbye. ("notify" is how ntfy has
 * Twilio's voice say its name.)
 */
export const defaultCallFormat = `
<Response>
	<Pause length="1"/>
	<Say loop="3">
		You have a message from notify on topic {{.Topic}}. Message:
		<break time="1s"/>
		{{.Message}}
		<break time="1s"/>
		End of message.
		<break time="1s"/>
		This message was sent by user {{.Sender}}. It will be repeated three times.
		To unsubscribe from calls like this, remove your phone number in the notify web app.
		<break time="3s"/>
	</Say>
	<Say>Goodbye.</Say>
</Response>`;

/**
 * twilio-call-format, parsed once at startup (an empty one is the default); throws the
 * template engine's TemplateError for a bad one.
 */
export function compileCallFormat(text: string): Template {
  return compile(text === '' ? defaultCallFormat : text, 'twiml');
}

/**
 * The TwiML of a call about `message`: ntfy's twilioCallData — Topic, Title, Message,
 * Priority (a Go int, 0 when unset), Tags ([]string) and Sender (the user's name, else
 * the publisher's IP). Every string is XML-escaped before templating, so a template
 * writes them as they are and a hostile title cannot add TwiML verbs; the template's own
 * text is the operator's, trusted. Throws TemplateError when the template fails.
 */
export function callTwiml(format: Template, message: Message, sender: string): string {
  return format.render({
    Topic: xmlText(message.topic),
    Title: xmlText(message.title ?? ''),
    Message: xmlText(message.message ?? ''),
    Priority: BigInt(message.priority ?? 0),
    Tags: typedArray((message.tags ?? []).map(xmlText), 'string'),
    Sender: xmlText(sender),
  });
}

const entities: Record<string, string> = { '"': '&#34;', "'": '&#39;', '&': '&amp;', '<': '&lt;', '>': '&gt;', '\t': '&#x9;', '\n': '&#xA;', '\r': '&#xD;' };

/**
 * Text escaped as Go's xml.EscapeText escapes it (ntfy's xmlEscapeText): the markup
 * characters, quotes and line breaks as references, and what XML may not hold at all
 * (control characters, lone surrogates, U+FFFE/FFFF) as U+FFFD.
 */
export function xmlText(text: string): string {
  let out = '';
  for (const c of text) out += entities[c] ?? (isXmlChar(c.codePointAt(0) as number) ? c : '\uFFFD'); // by code point: a lone surrogate comes alone
  return out;
}

/** XML 1.0's Char production (Go's isInCharacterRange). */
function isXmlChar(cp: number): boolean {
  return cp === 0x09 || cp === 0x0a || cp === 0x0d || (cp >= 0x20 && cp <= 0xd7ff) || (cp >= 0xe000 && cp <= 0xfffd) || cp >= 0x10000;
}
