import type { Message } from './message.js';
import { defaultHistorySize } from './history.js';
import { newestEvents } from './poll-body.js';
import { authHeadersFor, authParamFor } from './server-users.js';
import { serverOf, topicUrlOf, type Located } from './servers.js';
import { settings } from './settings.js';

/** Seconds to wait before the nth reconnect: quick at first, then no more than once a minute. */
const backoffSeconds = [1, 2, 5, 10, 30, 60];

/**
 * `denied`: the server answered 401/403, so retrying with the same credentials is pointless
 * (a login reconnects every topic); `limited`: it answered 429, retried at `retryAt`.
 */
export type ConnectionState = 'connecting' | 'live' | 'retrying' | 'denied' | 'limited';

export interface ConnectionStatus {
  state: ConnectionState;
  /** When the next attempt starts (ms since the epoch), while retrying or limited. */
  retryAt?: number;
}

export interface ConnectionEvents {
  /** Messages and message_delete / message_clear events, oldest first: a poll's history at once (`live` false), or one that came live. */
  onEvents(events: readonly Message[], live: boolean): void;
  /** The server no longer held messages this topic missed while away (Tocsin's replay_gap event). */
  onGap(): void;
  onState(status: ConnectionStatus): void;
}

/** The events a subscription keeps (open and keepalive are not). */
const kept = (event: Message): boolean => event.event === 'message' || event.event === 'message_delete' || event.event === 'message_clear';

/** Seconds a 429's Retry-After asks for, when it gives a number. */
function retryAfter(res: Response): number | undefined {
  const seconds = Number(res.headers.get('Retry-After') ?? NaN);
  return Number.isFinite(seconds) && seconds > 0 ? seconds : undefined;
}

/**
 * A topic's subscription: first its history from the server's cache (`poll=1&since=`),
 * then a WebSocket from the last id seen. After a drop it polls again from the last id
 * (which replays what was published meanwhile) before reopening the socket: a browser's
 * WebSocket hides the HTTP status of a refused upgrade, the poll shows it (401/403/429).
 */
export class TopicConnection {
  private socket: WebSocket | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private closed = false;

  constructor(
    /** The topic, on the app's server or another, read with that server's credentials (server-users.ts). */
    private readonly where: Located,
    /** The newest id the app holds of this topic, or a Unix time before it subscribed. */
    private since: string,
    private readonly events: ConnectionEvents,
  ) {
    void this.start();
  }

  close(): void {
    this.closed = true;
    clearTimeout(this.retry);
    this.socket?.close();
  }

  private async start(): Promise<void> {
    if (this.attempts === 0) this.events.onState({ state: 'connecting' });
    try {
      const res = await fetch(`${topicUrlOf(this.where)}/json?poll=1&since=${encodeURIComponent(this.since)}`, { headers: authHeadersFor(serverOf(this.where)) });
      if (this.closed) return;
      if (res.status === 401 || res.status === 403) return this.events.onState({ state: 'denied' });
      if (res.status === 429) return this.reconnectLater('limited', retryAfter(res));
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      const { gap, events } = await newestEvents(res, settings.value.historySize ?? defaultHistorySize);
      if (this.closed) return;
      if (gap) this.events.onGap();
      const history = events.filter(kept);
      if (history.length > 0) {
        this.since = (history[history.length - 1] as Message).id;
        this.events.onEvents(history, false);
      }
    } catch {
      return this.reconnectLater('retrying');
    }
    if (!this.closed) this.open();
  }

  private open(): void {
    const params = new URLSearchParams({ since: this.since });
    const auth = authParamFor(serverOf(this.where));
    if (auth) params.set('auth', auth);
    const socket = new WebSocket(`${topicUrlOf(this.where).replace(/^http/, 'ws')}/ws?${params}`);
    this.socket = socket;
    socket.onmessage = (e: MessageEvent<string>) => {
      const event = JSON.parse(e.data) as Message;
      if (event.event === 'open') {
        this.attempts = 0;
        this.events.onState({ state: 'live' });
      }
      this.receive(event);
    };
    socket.onclose = () => {
      if (this.socket === socket) this.reconnectLater('retrying');
    };
  }

  private receive(event: Message): void {
    if (event.event === 'replay_gap') return this.events.onGap();
    if (!kept(event)) return;
    this.since = event.id;
    this.events.onEvents([event], true);
  }

  private reconnectLater(state: 'retrying' | 'limited', asked?: number): void {
    if (this.closed) return;
    const delay = asked ?? backoffSeconds[Math.min(this.attempts, backoffSeconds.length - 1)] ?? 60;
    this.attempts++;
    this.events.onState({ state, retryAt: Date.now() + delay * 1000 });
    this.retry = setTimeout(() => void this.start(), delay * 1000);
  }
}
