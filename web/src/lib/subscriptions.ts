import { api, ApiError } from './api.js';
import { apiBase, topicUrl } from './config.js';
import { TopicConnection, type ConnectionStatus } from './connection.js';
import type { Message } from './message.js';
import { announcement, notify } from './notifier.js';
import { navigate, route } from './route.js';
import { savedStore } from './saved.js';
import { authHeaders, session } from './session.js';
import { settings } from './settings.js';
import { Store } from './store.js';
import { boundHistory, defaultHistorySize } from './history.js';

/** A subscribed topic with the messages received so far and where to go on from. */
export interface Subscription {
  topic: string;
  /** The newest id received, or `all` before the first: the `since=` of the next (re)connect. */
  since: string;
  messages: Message[];
  /** The name the sidebar and the list show instead of the topic (kept in the account too, as ntfy's display_name). */
  displayName?: string;
  /** No browser notifications for it; the list still receives its messages. */
  muted?: boolean;
  /** Set when a reconnect's replay missed messages the server no longer held (replay_gap), until dismissed. */
  gap?: boolean;
}

/** Kept in localStorage: a reload shows the same topics and messages and asks only for what is newer. */
export const subscriptions = savedStore<Subscription[]>('subscriptions', []);

/**
 * Logging out (or the token running out) ends what the account could read: its topics and
 * their messages (and the last one announced) leave the page and the browser's storage, as
 * ntfy's web app resets its own.
 */
let loggedIn = session.value !== null;
session.subscribe((value) => {
  if (loggedIn && !value) {
    subscriptions.set([]);
    announcement.set('');
  }
  loggedIn = value !== null;
});

/** Each topic's connection state, for the list's header. */
export const connectionStates = new Store<Record<string, ConnectionStatus>>({});
const connections = new Map<string, TopicConnection>();

/** Opens a connection for every subscription and closes those of removed ones; call once at start. */
export function connectSubscriptions(): void {
  const sync = (): void => {
    const topics = new Set(subscriptions.value.map((s) => s.topic));
    for (const [topic, connection] of connections) {
      if (topics.has(topic)) continue;
      connection.close();
      connections.delete(topic);
    }
    for (const sub of subscriptions.value) {
      if (connections.has(sub.topic)) continue;
      connections.set(
        sub.topic,
        new TopicConnection(sub.topic, sub.since, {
          onEvent: (event, live) => receive(sub.topic, event, live),
          onGap: () => setGap(sub.topic, true),
          onState: (status) => connectionStates.update((states) => ({ ...states, [sub.topic]: status })),
        }),
      );
    }
  };
  subscriptions.subscribe(sync);
  // Logging in or out (here or in another tab) changes what the topics may be read with:
  // reconnect them all with the new credentials. A renewal keeps the token, and the streams.
  let token = session.value?.token;
  session.subscribe((value) => {
    if (value?.token === token) return;
    token = value?.token;
    for (const connection of connections.values()) connection.close();
    connections.clear();
    sync();
  });
  sync();
  prune();
  setInterval(prune, 60_000);
  settings.subscribe(boundStoredHistory);
}

/** Whether the visitor sees `topic`'s page now: what arrives there is read as it arrives. */
const onScreen = (topic: string): boolean => document.visibilityState === 'visible' && route.value.page === 'topic' && route.value.topic === topic;

function receive(topic: string, event: Message, live: boolean): void {
  const sub = subscriptions.value.find((s) => s.topic === topic);
  const known = sub?.messages.some((m) => m.id === event.id) ?? false;
  subscriptions.update((subs) =>
    subs.map((sub) => {
      if (sub.topic !== topic) return sub;
      let messages = sub.messages;
      if (event.event === 'message_delete') messages = messages.filter((m) => m.sequence_id !== event.sequence_id);
      // Marked read elsewhere (another device, ntfy's apps, or this page's Mark read).
      else if (event.event === 'message_clear') messages = messages.map((m) => (m.unread && (m.sequence_id ?? m.id) === event.sequence_id ? { ...m, unread: false } : m));
      else if (event.event === 'message') {
        if (messages.some((m) => m.id === event.id)) return { ...sub, since: event.id };
        // An update of an earlier message (same sequence_id) takes its place (ntfy 2.16).
        const received = onScreen(topic) ? event : { ...event, unread: true };
        messages = [...messages.filter((m) => !event.sequence_id || m.sequence_id !== event.sequence_id), received];
      }
      return { ...sub, since: event.id, messages };
    }),
  );
  if (event.event === 'message') boundStoredHistory();
  if (live && !known && !sub?.muted && event.event === 'message' && (event.priority ?? 3) >= settings.value.minPriority) notify(event, () => navigate(topic));
}

/** Marks every message of `topic` read in this browser (the visitor opened its page). */
export function markTopicRead(topic: string): void {
  if (!subscriptions.value.some((s) => s.topic === topic && s.messages.some((m) => m.unread))) return;
  subscriptions.update((subs) => subs.map((s) => (s.topic === topic ? { ...s, messages: s.messages.map((m) => (m.unread ? { ...m, unread: false } : m)) } : s)));
}

function changeMessages(topic: string, change: (messages: Message[]) => Message[]): void {
  subscriptions.update((subs) => subs.map((s) => (s.topic === topic ? { ...s, messages: change(s.messages) } : s)));
}

/**
 * Marks one message read here, and everywhere else through ntfy's `/{topic}/{sequence_id}/read`
 * (a `message_clear` event the other devices and ntfy's apps act on). The server refuses it
 * to a visitor who may not publish to the topic: then it stays read in this browser only.
 */
export function markRead(message: Message): void {
  changeMessages(message.topic, (messages) => messages.map((m) => (m.id === message.id ? { ...m, unread: false } : m)));
  void fetch(`${topicUrl(message.topic)}/${encodeURIComponent(message.sequence_id ?? message.id)}/read`, { method: 'PUT', headers: authHeaders() }).catch(() => undefined);
}

/** Names `topic` in the sidebar and the list (empty: its topic name again), in the account too when logged in. */
export async function setDisplayName(topic: string, name: string): Promise<void> {
  const displayName = name.trim() || undefined;
  subscriptions.update((subs) => subs.map((s) => (s.topic === topic ? { ...s, displayName } : s)));
  if (session.value) await api('PATCH', '/v1/account/subscription', { body: { base_url: apiBase, topic, display_name: displayName ?? null } });
}

export function setMuted(topic: string, muted: boolean): void {
  subscriptions.update((subs) => subs.map((s) => (s.topic === topic ? { ...s, muted } : s)));
}

/** Removes one message from this browser, as ntfy's web app deletes a notification (the server keeps it). */
export function deleteMessage(message: Message): void {
  changeMessages(message.topic, (messages) => messages.filter((m) => m.id !== message.id));
}

/** The unread messages the minimum-priority setting shows, of every topic: the tab title's count. */
export function unreadCount(subs: readonly Subscription[], minPriority: number): number {
  return subs.reduce((sum, s) => sum + shownMessages(s.messages, minPriority).filter((m) => m.unread).length, 0);
}

/** Marks (or, dismissed, unmarks) that `topic` missed notifications the server could not replay. */
export function setGap(topic: string, gap: boolean): void {
  subscriptions.update((subs) => subs.map((s) => (s.topic === topic ? { ...s, gap } : s)));
}

/** Keeps the stored messages within the history-size setting, so localStorage (about 5 MB) never fills. */
function boundStoredHistory(): void {
  const bounded = boundHistory(subscriptions.value, settings.value.historySize ?? defaultHistorySize);
  if (bounded !== subscriptions.value) subscriptions.set(bounded);
}

/** Drops messages older than the delete-after setting, and the oldest beyond the history size (a smaller one just chosen). */
function prune(): void {
  boundStoredHistory();
  const { deleteAfter } = settings.value;
  if (deleteAfter <= 0) return;
  const oldest = Date.now() / 1000 - deleteAfter;
  if (!subscriptions.value.some((s) => s.messages.some((m) => m.time < oldest))) return;
  subscriptions.update((subs) => subs.map((s) => ({ ...s, messages: s.messages.filter((m) => m.time >= oldest) })));
}

/** Subscribes to a topic (its cached history first); remembered in the account when logged in. */
export async function subscribe(topic: string): Promise<void> {
  if (subscriptions.value.some((s) => s.topic === topic)) return;
  subscriptions.update((subs) => [...subs, { topic, since: 'all', messages: [] }]);
  if (!session.value) return;
  try {
    await api('POST', '/v1/account/subscription', { body: { base_url: apiBase, topic } });
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 40903)) throw err; // 40903: the account has it already
  }
}

export async function unsubscribe(topic: string): Promise<void> {
  subscriptions.update((subs) => subs.filter((s) => s.topic !== topic));
  if (session.value) await api('DELETE', '/v1/account/subscription', { headers: { 'X-BaseURL': apiBase, 'X-Topic': topic } });
}

/** The messages the minimum-priority setting lets the list show (and the sidebar count). */
export function shownMessages(messages: readonly Message[], minPriority: number): Message[] {
  return messages.filter((m) => (m.priority ?? 3) >= minPriority);
}

export function clearMessages(topic: string): void {
  changeMessages(topic, () => []);
}

/** Adds the subscriptions the account remembers for this server (after logging in, or at start). */
export function adoptAccountSubscriptions(remembered: readonly { base_url: string; topic: string; display_name?: string | null }[] = []): void {
  const known = new Set(subscriptions.value.map((s) => s.topic));
  const added = remembered.filter((r) => r.base_url === apiBase && !known.has(r.topic));
  if (added.length > 0) subscriptions.update((subs) => [...subs, ...added.map((r) => ({ topic: r.topic, since: 'all', messages: [], displayName: r.display_name ?? undefined }))]);
}
