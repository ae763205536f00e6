import type { Message } from '../../model/message.js';
import { splitTags } from './emojis.js';

/** ntfy's priority words as its mails print them (util.PriorityString). */
export const priorityNames = ['', 'min', 'low', 'default', 'high', 'max'] as const;

/** Where a forwarded message came from: named in every mail, against abuse (as ntfy). */
export interface Origin {
  /** base-url + '/' + topic */
  topicUrl: string;
  senderIp: string;
}

/** The subject as ntfy's formatMail makes it: the title (or the message) on one line, emoji tags first. */
export function subjectOf(m: Message): string {
  const line = (m.title || m.message || '').replaceAll('\r', '').replaceAll('\n', ' ');
  const { emojis } = splitTags(m.tags);
  return emojis.length > 0 ? `${emojis.join(' ')} ${line}` : line;
}

/**
 * The text/plain part, ntfy's mail body line for line: the message, then the tags that
 * are no emoji and a priority other than default, then who sent it from where.
 */
export function textPart(m: Message, origin: Origin): string {
  const trailer: string[] = [];
  const { words } = splitTags(m.tags);
  if (words.length > 0) trailer.push(`Tags: ${words.join(', ')}`);
  if (m.priority !== undefined && m.priority !== 3) trailer.push(`Priority: ${priorityNames[m.priority] ?? m.priority}`);
  const body = trailer.length > 0 ? `${m.message ?? ''}\n\n${trailer.join('\n')}` : (m.message ?? '');
  return `${body}\n\n--\nThis message was sent by ${origin.senderIp} at ${sentAt(m.time)} via ${origin.topicUrl}`;
}

/** Go's time.RFC1123 in UTC: "Fri, 24 Dec 2021 21:43:24 UTC". */
export function sentAt(time: number): string {
  return new Date(time * 1000).toUTCString().replace(/GMT$/, 'UTC');
}

/** ntfy's util.ShortTopicURL: the topic URL without its scheme, as the sender's display name. */
export function shortTopicUrl(topicUrl: string): string {
  return topicUrl.replace(/^https?:\/\//, '');
}
