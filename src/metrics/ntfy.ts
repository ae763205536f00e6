import { Counter, Gauge, type Registry } from 'prom-client';
import type { RequestCounts } from './requests.js';
import type { ServerState } from './state.js';

/**
 * ntfy's metrics (server/server_metrics.go) under ntfy's names, types and labels, so
 * ntfy's Grafana dashboard (examples/grafana-dashboard) reads a Tocsin server unchanged.
 * ntfy registers every one of them whenever metrics are on, whether or not the server
 * sends e-mail, calls, Matrix or Firebase pushes; so does Tocsin. Tocsin has no Firebase:
 * its counters exist and stay 0, nothing counts into them.
 * The state gauges are collected at scrape time (see state.ts); ntfy sets them once per
 * manager interval.
 */
export function ntfyMetrics(registry: Registry, requests: RequestCounts, state: () => ServerState | undefined) {
  const registers = [registry];
  const counter = (name: string, help: string): Counter => new Counter({ name, help, registers });
  const gauge = (name: string, help: string, read?: (s: ServerState) => number | Promise<number>): Gauge =>
    new Gauge({
      name,
      help,
      registers,
      ...(read && {
        async collect(this: Gauge) {
          const s = state();
          if (s) this.set(await read(s));
        },
      }),
    });
  return {
    publishedSuccess: counter('ntfy_messages_published_success', 'Messages published and committed'),
    publishedFailure: counter('ntfy_messages_published_failure', 'Publishes refused after the request and access checks'),
    cached: gauge('ntfy_messages_cached_total', 'Messages in the cache, scheduled ones included', (s) => s.cachedMessages()),
    // A gauge, as ntfy: the duration of the latest publish, not a distribution.
    publishDurationMs: gauge('ntfy_message_publish_duration_ms', 'Milliseconds the latest publish took until its commit'),
    firebaseSuccess: counter('ntfy_firebase_published_success', 'Firebase pushes sent (not supported by Tocsin: always 0)'),
    firebaseFailure: counter('ntfy_firebase_published_failure', 'Firebase pushes failed (not supported by Tocsin: always 0)'),
    emailsSentSuccess: counter('ntfy_emails_sent_success', 'Forwarded e-mails (X-Email) the relay took'),
    emailsSentFailure: counter('ntfy_emails_sent_failure', 'Forwarded e-mails given up on: refused, retries spent, or dropped from the full queue'),
    emailsReceivedSuccess: counter('ntfy_emails_received_success', 'E-mails received by the SMTP listener and published'),
    emailsReceivedFailure: counter('ntfy_emails_received_failure', 'E-mails refused by the SMTP listener, at RCPT TO or DATA'),
    callsSuccess: counter('ntfy_calls_made_success', 'Phone calls (X-Call) Twilio took'),
    callsFailure: counter('ntfy_calls_made_failure', 'Phone calls (X-Call) Twilio refused or that could not reach it'),
    unifiedPushSuccess: counter('ntfy_unifiedpush_published_success', 'UnifiedPush messages published (up=1)'),
    matrixSuccess: counter('ntfy_matrix_published_success', 'Matrix push gateway messages published'),
    matrixFailure: counter('ntfy_matrix_published_failure', 'Matrix push gateway messages refused'),
    attachmentsSize: gauge('ntfy_attachments_total_size', 'Bytes of stored attachments, uploads in progress included', (s) => s.attachmentBytes()),
    visitors: gauge('ntfy_visitors_total', 'Visitors held in memory (addresses, networks and users on a tier)', (s) => s.visitors()),
    users: gauge('ntfy_users_total', 'Users in the auth-file (0 without one)', (s) => s.users()),
    subscribers: gauge('ntfy_subscribers_total', 'Open subscriber connections (HTTP streams and WebSockets)', (s) => s.subscribers()),
    topics: gauge('ntfy_topics_total', 'Topics the server holds: subscribed to, or used within cache-duration', (s) => s.topics()),
    // ntfy 2.37.2; set by the periodic ping (db-ping.ts), not at scrape time, so a scrape never waits on the database.
    dbPing: gauge('ntfy_db_ping_seconds', 'Seconds the latest ping of the database took to answer (or to fail: see tocsin_db_ping_failures_total), every manager-interval'),
    httpRequests: new Counter({
      name: 'ntfy_http_requests_total',
      help: 'HTTP requests by outcome; every success is http_code 200, ntfy_code 20000, as ntfy labels them',
      labelNames: ['http_code', 'ntfy_code', 'http_method'],
      registers,
      collect(this: Counter<'http_code' | 'ntfy_code' | 'http_method'>) {
        requests.fill(this);
      },
    }),
  };
}

export type NtfyMetrics = ReturnType<typeof ntfyMetrics>;
