import type { Logger } from 'pino';
import type { AccessControl } from '../auth/access-control.js';
import type { OidcSignOn } from '../auth/oidc.js';
import type { Alerts } from '../alerts/alerts.js';
import type { Caller } from '../calls/caller.js';
import type { Monitors } from '../monitors/monitors.js';
import type { TwilioGateway } from '../calls/twilio.js';
import type { Config } from '../config/schema.js';
import type { MailSender } from '../mail/outbound/mailer.js';
import type { Metrics } from '../metrics/metrics.js';
import type { WebPush } from '../push/web-push.js';
import type { HttpError } from '../model/errors.js';
import type { AttachmentStore } from '../store/attachment-store.js';
import type { LiveFeed } from '../store/live-feed.js';
import type { MessageCache } from '../store/message-cache.js';
import type { TopicHub } from '../streams/hub.js';
import type { Publisher } from '../streams/publisher.js';
import type { Stats } from '../streams/stats.js';
import type { SubscriptionTally } from '../streams/subscription-tally.js';
import type { TopicRegistry } from '../streams/topics.js';
import type { BanFeed } from '../visitors/ban-feed.js';
import type { Visitors } from '../visitors/visitors.js';
import { clientAddressOf } from './client.js';
import type { RejectionLog } from './http/rejections.js';
import type { RequestInfo } from './http/request.js';
import type { TurnFlusher } from './subscribe/flusher.js';
import type { Keepalives } from './subscribe/keepalives.js';
import type { StreamFanout } from './subscribe/stream-fanout.js';
import type { Connection } from './subscribe/subscriber.js';
import type { DocsSite } from './web/docs-site.js';
import type { WebSite } from './web/site.js';

/** Spec "Replay rules": a replay carries at most the newest 10 MB of each topic. */
export const replayLimitBytes = 10 * 1024 * 1024;

/** What the transports use of the core; built once by the composition root (src/server.ts). */
export interface ServerContext {
  config: Config;
  log: Logger;
  cache: MessageCache;
  /** The commits going live; the hub follows it. */
  feed: LiveFeed;
  hub: TopicHub;
  topics: TopicRegistry;
  publisher: Publisher;
  /** Present with an auth-file; without one every topic is open. */
  access: AccessControl | undefined;
  /** Single sign-on through an OpenID Connect provider; undefined without auth-oidc-issuer. */
  oidc: OidcSignOn | undefined;
  /** Uploaded files; undefined without attachment-cache-dir (uploads answer 40014). */
  attachments: AttachmentStore | undefined;
  /** Rate limits and quotas per visitor (address, network or user on a tier). */
  visitors: Visitors;
  stats: Stats;
  flusher: TurnFlusher;
  /** Unfiltered HTTP stream subscribers, grouped by their set of topics. */
  fanout: StreamFanout;
  /** The HTTP streams' keepalive events and the WebSockets' pings, every keepalive-interval. */
  keepalives: Keepalives;
  /** Open subscriber connections, ended at shutdown. */
  connections: Set<Connection>;
  /** The same subscriptions counted by format and by topic (the live dashboard). */
  subscriptions: SubscriptionTally;
  /** The log of refused requests (rate-limited), told by every Exchange. */
  rejections: RejectionLog;
  /** Subscribers dropped for not reading (slow-consumer policy). */
  counters: { slowSubscribersDropped: number };
  /** The abuse ban feed for fail2ban; undefined without ban-file. */
  bans: BanFeed | undefined;
  /** Prometheus metrics; undefined unless enable-metrics or metrics-listen-http is set. */
  metrics: Metrics | undefined;
  /** Forwards X-Email messages; undefined without smtp-sender-addr. */
  mailer: MailSender | undefined;
  /** Pushes messages to subscribed browsers; undefined without web-push-public-key. */
  webPush: WebPush | undefined;
  /** Heartbeat monitors; undefined without monitor-file. */
  monitors: Monitors | undefined;
  /** Alerts repeated until acknowledged (Repeat) and their receipts. */
  alerts: Alerts;
  /** Phone calls (X-Call) and number verification; undefined without twilio-account. */
  calls: { twilio: TwilioGateway; caller: Caller } | undefined;
  /** The web app's files (web-root); undefined when off. */
  web: WebSite | undefined;
  /** The docs site at /docs; undefined when the web pages are off or it was not built. */
  docs: DocsSite | undefined;
}

/**
 * What an Exchange tells of each error it answers: the rejection log, the request counts
 * and the ban feed. A WebSocket refused before its upgrade is answered by an Exchange too;
 * an error after it is not (ntfy records only those before, too).
 */
export function onRefusal(ctx: ServerContext, req: RequestInfo): (e: HttpError, cause: unknown) => void {
  return (e, cause) => {
    ctx.rejections.record(req, e, cause);
    ctx.metrics?.refused(req.method, e);
    ctx.bans?.record(clientAddressOf(ctx, req), e.http, e.code);
  };
}

/** The slow-consumer policy's bookkeeping: every dropped subscriber is counted and logged. */
export function recordSlowSubscriber(ctx: ServerContext, topics: readonly string[], format: string, remote: string): void {
  ctx.counters.slowSubscribersDropped++;
  ctx.metrics?.slowSubscriberDropped(format);
  ctx.log.warn({ topics: topics.join(','), format, remote }, 'dropped a subscriber that stopped reading (buffer limit reached)');
}
