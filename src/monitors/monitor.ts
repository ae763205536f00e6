/**
 * Heartbeat monitors (a dead man's switch, ntfy's monitor package, after 2.28): a user's
 * record expecting a ping on /v1/heartbeat/<key> at least every `period` seconds. One that
 * misses `period + grace` goes DOWN and its owner's `alert_topic` gets an alert; the next
 * ping brings it UP with a recovery alert. A new monitor is `pending` and never alerts
 * before its first ping.
 */
export type MonitorState = 'pending' | 'up' | 'down';

export interface Monitor {
  /** The owner's user name. */
  user: string;
  /** The owner's name for it, unique per owner. */
  key: string;
  period: number;
  grace: number;
  alertTopic: string;
  alertPriority: number;
  state: MonitorState;
  /** Unix seconds of the latest ping; 0 before the first. */
  lastSeenAt: number;
  createdAt: number;
}

/** What a request may set of a monitor. */
export type MonitorSettings = Pick<Monitor, 'period' | 'grace' | 'alertTopic' | 'alertPriority'>;

/** ntfy's bounds (monitor/types.go): sanity caps on what one monitor may ask. */
export const monitorBounds = {
  period: { min: 30, max: 86_400 },
  grace: { min: 10, max: 86_400 },
  priority: { min: 1, max: 5 },
} as const;

/** ntfy's DefaultAlertPriority: high, not max. */
export const defaultAlertPriority = 4;

/** A key as ntfy's keyRegex (the same characters as a topic). */
export const monitorKeyPattern = /^[-_A-Za-z0-9]{1,64}$/;

/** The monitor's JSON, as ntfy's monitorResponse. */
export function monitorJson(m: Monitor): Record<string, unknown> {
  return {
    key: m.key,
    period: m.period,
    grace: m.grace,
    alert_topic: m.alertTopic,
    alert_priority: m.alertPriority,
    state: m.state,
    last_seen_at: m.lastSeenAt,
    created_at: m.createdAt,
  };
}

/** The alert's title, text and tags, ntfy's words (server_monitor.go). */
export function alertOf(m: Monitor, recovery: boolean): { title: string; message: string; tags: string[] } {
  return recovery
    ? { title: `Monitor ${m.key} is UP`, message: `Heartbeat received; monitor ${m.key} recovered after being down.`, tags: ['white_check_mark'] }
    : {
        title: `Monitor ${m.key} is DOWN`,
        message: `No heartbeat for at least ${m.period + m.grace}s (period=${m.period}s, grace=${m.grace}s).`,
        tags: ['warning'],
      };
}
