import { splitTags } from './emoji.js';
import { isImage, type Message } from './message.js';

/** What a notification's click needs: the message, and the app's page of its topic. */
export interface NotificationData {
  message: Message;
  topicPage: string;
}

/** The options Chrome, Firefox and Safari take beyond TypeScript's DOM types (image, timestamp, actions). */
export interface ShownNotificationOptions extends NotificationOptions {
  image?: string;
  timestamp?: number;
  actions?: { action: string; title: string }[];
}

/** Action buttons a notification offers: the ones a click can carry out (ntfy's service worker offers the same two kinds). */
const clickable = new Set(['view', 'http']);

/** A message's title as ntfy's apps show it: the tags' emojis, then the title or else the topic. */
export function notificationTitle(message: Message): string {
  return [...splitTags(message.tags).emojis, message.title ?? message.topic].join(' ');
}

/**
 * The system notification of a message, shown by the page and by the service worker alike
 * (web/sw/), for `topicPage` the app's page of its topic: one notification per message, an
 * update (same sequence_id, ntfy 2.16) replacing it; the message's icon when it is a web
 * image, the app's otherwise; an image attachment shown; urgent ones (priority 5) stay until
 * dismissed. An action button's `action` is its index among the message's actions.
 */
export function notificationContent(message: Message, topicPage: string, appIcon: string): { title: string; options: ShownNotificationOptions } {
  const image = message.attachment && isImage(message.attachment) ? message.attachment.url : undefined;
  const data: NotificationData = { message, topicPage };
  return {
    title: notificationTitle(message),
    options: {
      body: message.message ?? '',
      tag: message.sequence_id ?? message.id,
      icon: message.icon && /^https?:\/\//i.test(message.icon) ? message.icon : appIcon,
      timestamp: message.time * 1000,
      requireInteraction: (message.priority ?? 3) >= 5,
      data,
      ...(image !== undefined && { image }),
      actions: (message.actions ?? []).flatMap((a, i) => (clickable.has(a.action) ? [{ action: String(i), title: a.label }] : [])),
    },
  };
}
