import { api, ApiError } from './api.js';
import { apiBase } from './config.js';
import { TopicConnection, type ConnectionStatus } from './connection.js';
import type { Message } from './message.js';
import { announcement, notify } from './notifier.js';
import { navigate, route, topicName, type Route } from './route.js';
import { savedStore } from './saved.js';
import { authHeadersFor, serverUsers } from './server-users.js';
import { parseBaseUrl, pathOf, serverOf, serverSegment, subscriptionKey, topicUrlOf, type Located } from './servers.js';
import { session } from './session.js';
import { settings } from './settings.js';
import { Store } from './store.js';
import { boundHistory, defaultHistorySize } from './history.js';

/** A subscribed topic with the messages received so far and where to go on from. */
export interface Subscription extends Located {
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

/** Each subscription's connection state (by subscriptionKey), for the list's header. */
export const connectionStates = new Store<Record<string, ConnectionStatus>>({});
const connections = new Map<string, TopicConnection>();

/** The subscription of `key` (subscriptionKey), if subscribed. */
export const subscriptionOf = (key: string): Subscription | undefined => subscriptions.value.find((s) => subscriptionKey(s) === key);

/** Opens a connection for every subscription and closes those of removed ones; call once at start. */
export function connectSubscriptions(): void {
  const sync = (): void => {
    const keys = new Set(subscriptions.value.map(subscriptionKey));
    for (const [key, connection] of connections) {
      if (keys.has(key)) continue;
      connection.close();
      connections.delete(key);
    }
    for (const sub of subscriptions.value) {
      const key = subscriptionKey(sub);
      if (connections.has(key)) continue;
      connections.set(
        key,
        new TopicConnection({ baseUrl: sub.baseUrl, topic: sub.topic }, sub.since, {
          onEvents: (events, live) => receive(key, events, live),
          onGap: () => setGap(key, true),
          onState: (status) => connectionStates.update((states) => ({ ...states, [key]: status })),
        }),
      );
    }
  };
  /** Closes the connections of the servers `changed` says, and opens them again with their credentials now. */
  const reconnect = (changed: (baseUrl: string) => boolean): void => {
    for (const [key, connection] of connections) {
      const sub = subscriptionOf(key);
      if (sub && !changed(serverOf(sub))) continue;
      connection.close();
      connections.delete(key);
    }
    sync();
  };
  subscriptions.subscribe(sync);
  // Logging in or out (here or in another tab) changes what the app's server's topics may be
  // read with: reconnect them with the new credentials. A renewal keeps the token, and the streams.
  let token = session.value?.token;
  session.subscribe((value) => {
    if (value?.token === token) return;
    token = value?.token;
    reconnect((baseUrl) => baseUrl === apiBase);
  });
  // Credentials added, changed or removed for another server: its topics reconnect with them.
  let users = serverUsers.value;
  serverUsers.subscribe((value) => {
    const before = users;
    users = value;
    const same = (baseUrl: string): boolean => JSON.stringify(before.find((u) => u.baseUrl === baseUrl)) === JSON.stringify(value.find((u) => u.baseUrl === baseUrl));
    reconnect((baseUrl) => baseUrl !== apiBase && !same(baseUrl));
  });
  sync();
  prune();
  setInterval(prune, 60_000);
  settings.subscribe(boundStoredHistory);
}

/** The subscription key of a topic page's route: its topic on this server, subscribed or not; on another (`server` a path segment, pathOf) once subscribed; else undefined. */
export function routeKey(r: Route): string | undefined {
  if (r.page !== 'topic') return undefined;
  if (r.server === undefined) return r.topic;
  const sub = subscriptions.value.find((s) => s.baseUrl !== undefined && s.topic === r.topic && serverSegment(s.baseUrl) === r.server);
  return sub ? subscriptionKey(sub) : undefined;
}

/** Whether the visitor sees the page of subscription `key` now: what arrives there is read as it arrives. */
const onScreen = (key: string): boolean => document.visibilityState === 'visible' && routeKey(route.value) === key;

/**
 * Takes in `events` (oldest first) for the subscription of `key`: a poll's history in one
 * update of the store (one write of localStorage, one bound of the history), not one per
 * message, which made a first subscription to a busy topic quadratic; or one live event.
 */
function receive(key: string, events: readonly Message[], live: boolean): void {
  const sub = subscriptionOf(key);
  if (!sub) return;
  const known = new Set(sub.messages.map((m) => m.id));
  subscriptions.update((subs) => subs.map((s) => (subscriptionKey(s) === key ? applied(s, events, onScreen(key)) : s)));
  if (events.some((e) => e.event === 'message')) boundStoredHistory();
  if (!live || sub.muted) return;
  for (const event of events) {
    if (event.event === 'message' && !known.has(event.id) && (event.priority ?? 3) >= settings.value.minPriority) notify(event, { path: pathOf(sub), pushed: !sub.baseUrl, open: () => navigate(pathOf(sub)) });
  }
}

/** `sub` with `events` applied in order; a message arriving while its page is `seen` is read at once. */
function applied(sub: Subscription, events: readonly Message[], seen: boolean): Subscription {
  let messages = [...sub.messages];
  const ids = new Set(messages.map((m) => m.id));
  for (const event of events) {
    if (event.event === 'message_delete') messages = messages.filter((m) => m.sequence_id !== event.sequence_id);
    // Marked read elsewhere (another device, ntfy's apps, or this page's Mark read).
    else if (event.event === 'message_clear') messages = messages.map((m) => (m.unread && (m.sequence_id ?? m.id) === event.sequence_id ? { ...m, unread: false } : m));
    else if (event.event === 'message' && !ids.has(event.id)) {
      ids.add(event.id);
      // An update of an earlier message (same sequence_id) takes its place (ntfy 2.16).
      if (event.sequence_id) messages = messages.filter((m) => m.sequence_id !== event.sequence_id);
      messages.push(seen ? event : { ...event, unread: true });
    }
  }
  const newest = events[events.length - 1];
  return { ...sub, since: newest ? newest.id : sub.since, messages };
}

/** Marks every message of subscription `key` read in this browser (the visitor opened its page). */
export function markTopicRead(key: string): void {
  if (!subscriptionOf(key)?.messages.some((m) => m.unread)) return;
  changeMessages(key, (messages) => messages.map((m) => (m.unread ? { ...m, unread: false } : m)));
}

function change(key: string, patch: (sub: Subscription) => Subscription): void {
  subscriptions.update((subs) => subs.map((s) => (subscriptionKey(s) === key ? patch(s) : s)));
}

function changeMessages(key: string, edit: (messages: Message[]) => Message[]): void {
  change(key, (s) => ({ ...s, messages: edit(s.messages) }));
}

/** The subscription holding `message` (a topic of that name on another server holds other ids). */
const holderOf = (message: Message): Subscription | undefined => subscriptions.value.find((s) => s.topic === message.topic && s.messages.some((m) => m.id === message.id));

/**
 * Marks one message read here, and everywhere else through ntfy's `/{topic}/{sequence_id}/read`
 * (a `message_clear` event the other devices and ntfy's apps act on). The server refuses it
 * to a visitor who may not publish to the topic: then it stays read in this browser only.
 */
export function markRead(message: Message): void {
  const sub = holderOf(message);
  if (!sub) return;
  changeMessages(subscriptionKey(sub), (messages) => messages.map((m) => (m.id === message.id ? { ...m, unread: false } : m)));
  void fetch(`${topicUrlOf(sub)}/${encodeURIComponent(message.sequence_id ?? message.id)}/read`, { method: 'PUT', headers: authHeadersFor(serverOf(sub)) }).catch(() => undefined);
}

/** Names subscription `key` in the sidebar and the list (empty: its topic name again), in the account too when logged in. */
export async function setDisplayName(key: string, name: string): Promise<void> {
  const displayName = name.trim() || undefined;
  change(key, (s) => ({ ...s, displayName }));
  const sub = subscriptionOf(key);
  if (session.value && sub) await api('PATCH', '/v1/account/subscription', { body: { base_url: serverOf(sub), topic: sub.topic, display_name: displayName ?? null } });
}

export function setMuted(key: string, muted: boolean): void {
  change(key, (s) => ({ ...s, muted }));
}

/** Removes one message from this browser, as ntfy's web app deletes a notification (the server keeps it). */
export function deleteMessage(message: Message): void {
  const sub = holderOf(message);
  if (sub) changeMessages(subscriptionKey(sub), (messages) => messages.filter((m) => m.id !== message.id));
}

/** The unread messages the minimum-priority setting shows, of every topic: the tab title's count. */
export function unreadCount(subs: readonly Subscription[], minPriority: number): number {
  return subs.reduce((sum, s) => sum + shownMessages(s.messages, minPriority).filter((m) => m.unread).length, 0);
}

/** Marks (or, dismissed, unmarks) that subscription `key` missed notifications the server could not replay. */
export function setGap(key: string, gap: boolean): void {
  change(key, (s) => ({ ...s, gap }));
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

/**
 * Subscribes to a topic (its cached history first), on the app's server or, with `baseUrl`
 * (parseBaseUrl's form), another; remembered in the account when logged in, as ntfy's web app
 * remembers both.
 */
export async function subscribe(topic: string, baseUrl?: string): Promise<void> {
  const where: Located = baseUrl && baseUrl !== apiBase ? { baseUrl, topic } : { topic };
  const key = subscriptionKey(where);
  if (subscriptionOf(key)) return;
  subscriptions.update((subs) => [...subs, { ...where, since: 'all', messages: [] }]);
  if (!session.value) return;
  try {
    await api('POST', '/v1/account/subscription', { body: { base_url: serverOf(where), topic } });
  } catch (err) {
    if (!(err instanceof ApiError && err.code === 40903)) throw err; // 40903: the account has it already
  }
}

export async function unsubscribe(key: string): Promise<void> {
  const sub = subscriptionOf(key);
  if (!sub) return;
  subscriptions.update((subs) => subs.filter((s) => subscriptionKey(s) !== key));
  if (session.value) await api('DELETE', '/v1/account/subscription', { headers: { 'X-BaseURL': serverOf(sub), 'X-Topic': sub.topic } });
}

/** The messages the minimum-priority setting lets the list show (and the sidebar count). */
export function shownMessages(messages: readonly Message[], minPriority: number): Message[] {
  return messages.filter((m) => (m.priority ?? 3) >= minPriority);
}

export function clearMessages(key: string): void {
  changeMessages(key, () => []);
}

/** Adds the subscriptions the account remembers, of this server and others (after logging in, or at start). */
export function adoptAccountSubscriptions(remembered: readonly { base_url: string; topic: string; display_name?: string | null }[] = []): void {
  const known = new Set(subscriptions.value.map(subscriptionKey));
  const added: Subscription[] = [];
  for (const r of remembered) {
    const own = r.base_url === apiBase;
    // Another server's URL as this app writes it (parseBaseUrl), or someone else wrote it to the account: not followed.
    const parsed = own ? undefined : parseBaseUrl(r.base_url);
    if ((parsed && (!('url' in parsed) || parsed.url !== r.base_url)) || !topicName.test(r.topic)) continue;
    const where: Located = own ? { topic: r.topic } : { baseUrl: r.base_url, topic: r.topic };
    if (known.has(subscriptionKey(where))) continue;
    known.add(subscriptionKey(where));
    added.push({ ...where, since: 'all', messages: [], displayName: r.display_name ?? undefined });
  }
  if (added.length > 0) subscriptions.update((subs) => [...subs, ...added]);
}
