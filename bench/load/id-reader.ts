/**
 * The ids of the message events in one subscription's bytes (a ws or json stream): Tocsin
 * writes `"id"` first and `"event"` a field or two later, as ntfy does, so the first
 * `"event":"` after an id is that object's. Open, keepalive and poll events carry ids too
 * and are skipped. WebSocket frames from a server are unmasked, so the JSON is in the raw
 * bytes whatever the frame headers around it.
 */
const idKey = Buffer.from('"id":"');
const eventKey = Buffer.from('"event":"');
const message = Buffer.from('message"');
const quote = 34;

export class IdReader {
  readonly seen = new Set<string>();
  /** Message events whose id this subscription had seen before. */
  duplicated = 0;
  /** Message events seen, repeats included. */
  messages = 0;

  /** Reads the complete events in `text`; returns how many bytes were consumed (the rest comes again with the next chunk). */
  read(text: Buffer): number {
    let at = text.indexOf(idKey);
    let consumed = 0;
    while (at >= 0) {
      const idStart = at + idKey.length;
      const idEnd = text.indexOf(quote, idStart);
      const event = idEnd < 0 ? -1 : text.indexOf(eventKey, idEnd);
      if (event < 0 || event + eventKey.length + message.length > text.length) return at;
      const valueAt = event + eventKey.length;
      if (text.subarray(valueAt, valueAt + message.length).equals(message)) this.add(text.toString('latin1', idStart, idEnd));
      consumed = valueAt;
      at = text.indexOf(idKey, consumed);
    }
    return Math.max(consumed, text.length - idKey.length);
  }

  private add(id: string): void {
    this.messages++;
    if (this.seen.has(id)) this.duplicated++;
    else this.seen.add(id);
  }
}
