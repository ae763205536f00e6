/**
 * What a call says: ntfy's TwiML (server_twilio.go) word for word, so a call from Tocsin
 * sounds as one from ntfy — an English announcement naming the topic, the message, the
 * sender, read three times (`loop="3"`), then a goodbye. ("notify" is how ntfy has
 * Twilio's voice say its name.)
 */
export function callTwiml(topic: string, message: string, sender: string): string {
  return `
<Response>
	<Pause length="1"/>
	<Say loop="3">
		You have a message from notify on topic ${xmlText(topic)}. Message:
		<break time="1s"/>
		${xmlText(message)}
		<break time="1s"/>
		End of message.
		<break time="1s"/>
		This message was sent by user ${xmlText(sender)}. It will be repeated three times.
		To unsubscribe from calls like this, remove your phone number in the notify web app.
		<break time="3s"/>
	</Say>
	<Say>Goodbye.</Say>
</Response>`;
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
