import { topicUrl } from './config.js';
import type { Message } from './message.js';
import { authHeaders, authParam } from './session.js';

/** Seconds to wait before the nth reconnect: quick at first, then no more than once a minute. */
const backoffSeconds = [1, 2, 5, 10, 30, 60];

export type ConnectionState = 'connecting' | 'live' | 'retrying';

export interface ConnectionEvents {
  /** A message, or a message_delete / message_clear event; `live` is false for history. */
  onEvent(event: Message, live: boolean): void;
  /** The server no longer held messages this topic missed while away (Tocsin's replay_gap event). */
  onGap(): void;
  onState(state: ConnectionState): void;
}

/**
 * A topic's subscription: first its history from the server's cache (`poll=1&since=`),
 * then a WebSocket from the last id seen, reopened after a drop (or a failed poll) with
 * `since=` the last id, so the server replays what was published meanwhile.
 */
export class TopicConnection {
  private socket: WebSocket | undefined;
  private retry: ReturnType<typeof setTimeout> | undefined;
  private attempts = 0;
  private closed = false;

  constructor(
    readonly topic: string,
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
    this.events.onState('connecting');
    try {
      const res = await fetch(`${topicUrl(this.topic)}/json?poll=1&since=${encodeURIComponent(this.since)}`, { headers: authHeaders() });
      if (!res.ok) throw new Error(`HTTP ${res.status}`);
      for (const line of (await res.text()).split('\n')) {
        if (line.trim()) this.receive(JSON.parse(line) as Message, false);
      }
    } catch {
      return this.reconnectLater();
    }
    if (!this.closed) this.open();
  }

  private open(): void {
    const params = new URLSearchParams({ since: this.since });
    const auth = authParam();
    if (auth) params.set('auth', auth);
    const socket = new WebSocket(`${topicUrl(this.topic).replace(/^http/, 'ws')}/ws?${params}`);
    this.socket = socket;
    socket.onmessage = (e: MessageEvent<string>) => {
      const event = JSON.parse(e.data) as Message;
      if (event.event === 'open') {
        this.attempts = 0;
        this.events.onState('live');
      }
      this.receive(event, true);
    };
    socket.onclose = () => {
      if (this.socket === socket) this.reconnectLater();
    };
  }

  private receive(event: Message, live: boolean): void {
    if (event.event === 'replay_gap') return this.events.onGap();
    if (event.event !== 'message' && event.event !== 'message_delete' && event.event !== 'message_clear') return;
    this.since = event.id;
    this.events.onEvent(event, live);
  }

  private reconnectLater(): void {
    if (this.closed) return;
    this.events.onState('retrying');
    const delay = backoffSeconds[Math.min(this.attempts++, backoffSeconds.length - 1)] ?? 60;
    this.retry = setTimeout(() => this.open(), delay * 1000);
  }
}
