import type { Logger } from 'pino';
import { config as rxConfig } from 'rxjs';
import { AccessControl } from './auth/access-control.js';
import { OidcSignOn } from './auth/oidc.js';
import { provision } from './auth/provision.js';
import { ConfigError } from './config/load.js';
import type { Config } from './config/schema.js';
import { parsePermission, readWrite } from './model/access.js';
import type { AuthStore } from './store/auth-store.js';
import { openStores, type Stores } from './store/index.js';
import { visitorKey, visitorNetwork } from './visitors/address.js';
import { BanFeed } from './visitors/ban-feed.js';
import { ClusterLimits } from './visitors/cluster-limits.js';
import { Visitors } from './visitors/visitors.js';
import { TopicHub } from './streams/hub.js';
import { Publisher } from './streams/publisher.js';
import { Scheduler } from './streams/scheduler.js';
import { nodeHousekeeping } from './housekeeping/node.js';
import { repeatLocally } from './housekeeping/local-timer.js';
import { sharedHousekeeping } from './housekeeping/shared.js';
import { Stats } from './streams/stats.js';
import { SubscriptionTally } from './streams/subscription-tally.js';
import { TopicRegistry } from './streams/topics.js';
import { onRefusal, type ServerContext } from './transports/context.js';
import { listenSmtp } from './mail/inbound/smtp-listener.js';
import { MailerThread } from './mail/outbound/mailer-thread.js';
import { Caller } from './calls/caller.js';
import { TwilioGateway } from './calls/twilio.js';
import { metricsApp } from './metrics/endpoint.js';
import { Upstream } from './push/upstream.js';
import { systemResolver, type HostResolver } from './push/public-address.js';
import { pushTtlSeconds, WebPush } from './push/web-push.js';
import { Metrics } from './metrics/metrics.js';
import { stateOf } from './metrics/state.js';
import { watchDatabasePing } from './metrics/db-ping.js';
import { Monitors } from './monitors/monitors.js';
import { Alerts } from './alerts/alerts.js';
import { CallbackSender } from './alerts/callback.js';
import { clientAddressOf } from './transports/client.js';
import { headersTooLarge } from './transports/http/header-limit.js';
import { RejectionLog } from './transports/http/rejections.js';
import { snapshot } from './transports/http/request.js';
import { Exchange } from './transports/http/respond.js';
import { uws, type ListenOptions, type us_listen_socket } from './transports/http/uws.js';
import { findRoute, webSocketGuards } from './transports/routes.js';
import { TurnFlusher } from './transports/subscribe/flusher.js';
import { Keepalives } from './transports/subscribe/keepalives.js';
import { StreamFanout } from './transports/subscribe/stream-fanout.js';
import { registerWebSocket } from './transports/subscribe/ws.js';
import { interruptLiveStreams } from './transports/subscribe/lost-range.js';
import { pathPrefix } from './transports/account/web-config.js';
import { openDocsSite } from './transports/web/docs-site.js';
import { openWebSite } from './transports/web/site.js';
import { errors } from './model/errors.js';
import { registerDashboardFeed } from './dashboard/feed-socket.js';
import { Peering } from './cluster/peering.js';

export interface RunningServer {
  port: number;
  /** The port of metrics-listen-http, when set. */
  metricsPort: number | undefined;
  /** The port of smtp-server-listen, when set. */
  smtpPort: number | undefined;
  context: ServerContext;
  /** Graceful stop: stop accepting, commit what is queued, end every stream, close the store. */
  close(): Promise<void>;
}

/** What the server reaches outside itself, replaceable by tests: the resolver Web Push checks push services' hosts with. */
export interface Surroundings {
  resolveHost: HostResolver;
}

/** The composition root: picks the store, wires the core and the transports, and listens. */
export async function startServer(config: Config, log: Logger, surroundings: Surroundings = { resolveHost: systemResolver }): Promise<RunningServer> {
  // A throwing subscriber must never take the process down; report it instead.
  rxConfig.onUnhandledError = (err) => log.error({ err }, 'unhandled error in a stream');
  const web = openWebSite(config.webRoot, (message) => log.warn(message));
  const docs = openDocsSite(config.webRoot, pathPrefix(config.baseUrl).app_root.slice(0, -1), (message) => log.warn(message));
  const hub = new TopicHub();
  const visitors = visitorsOf(config, hub);
  // The dashboard shows what the metrics count, so it needs them counted (not served).
  const metrics = config.metrics.enabled || config.enableDashboard ? new Metrics() : undefined;
  const store = await openStores(config, log, metrics);
  const { cache, feed, auth: authStore, attachments } = store;
  if (authStore) await provisionOrClose(store, authStore, config);
  const clusterLimits = store.ledger && new ClusterLimits(visitors, store.ledger, { onError: (err) => log.warn({ err }, 'sharing visitor limits with the other nodes failed; retrying') });
  const topics = new TopicRegistry(config.globalTopicLimit, new Set(config.disallowedTopics));
  topics.seed(store.knownTopics);
  const scheduler: Scheduler = new Scheduler(
    store.jobs,
    {
      release: (id): Promise<void> => publisher.release(id),
      housekeeping: () => sharedHousekeeping(ctx),
      alerts: { repeat: (id, n) => ctx.alerts.repeat(id, n), escalate: (id, step) => ctx.alerts.escalate(id, step) },
    },
    { housekeepingEveryMs: config.managerIntervalMs, onError: (err) => log.error({ err }, 'a scheduled job failed') },
  );
  hub.follow(feed.batches$, metrics);
  const webPush = store.webPush && config.webPush && new WebPush(store.webPush, config.webPush, { baseUrl: config.baseUrl, ttlSeconds: pushTtlSeconds(config.webPush.ttlMs, config.cacheDurationMs), log, resolve: surroundings.resolveHost });
  const upstream = config.upstream && new Upstream({ ...config.upstream, ownBaseUrl: config.baseUrl }, log);
  const peering = Peering.of(config, cache, store.peers, log, metrics);
  const publisher = new Publisher(cache, feed, scheduler, {
    ...(peering && { add: (entries) => peering.add(entries) }),
    batchSize: config.cacheBatchSize,
    batchTimeoutMs: config.cacheBatchTimeoutMs,
    onCommitError: (err, count) => log.error({ err, count }, 'cache commit failed; the publishers were answered with an error'),
    onCancelError: (err) => log.warn({ err }, 'dropping the job of a replaced scheduled message failed; it will find nothing to deliver'),
    observer: metrics,
    forward: (webPush || upstream) && ((event, unifiedPush) => {
      webPush?.delivered(event);
      upstream?.delivered(event, unifiedPush);
    }),
  });
  const mailer = await MailerThread.start(config, log, metrics);
  const stats = new Stats(cache, await cache.loadStats(), () => publisher.count, config.managerIntervalMs / 1000);
  const flusher = new TurnFlusher();
  const calls = phoneCalls(config, log, metrics);
  const ctx: ServerContext = {
    config, log, cache, feed, hub, topics, publisher, stats, visitors, attachments,
    access: authStore && new AccessControl(authStore, parsePermission(config.authDefaultAccess) ?? readWrite, {
      authFailures: config.authFailureLimit,
      accountActions: config.accountActionLimit,
      keyOf: (address) => visitorKey(address, config.visitorPrefixBitsIpv4, config.visitorPrefixBitsIpv6),
    }, config.authAccessCache, config.proxyAuth),
    oidc: config.oidc && new OidcSignOn(config.oidc, `${config.baseUrl}/v1/auth/oidc/callback`),
    flusher,
    fanout: new StreamFanout(hub, flusher),
    keepalives: new Keepalives(config.keepaliveIntervalMs),
    connections: new Set(),
    subscriptions: new SubscriptionTally(),
    rejections: new RejectionLog(log, (req) => clientAddressOf(ctx, req)),
    counters: { slowSubscribersDropped: 0 },
    bans: config.ban && new BanFeed(config.ban, (address) => visitorNetwork(address, config.visitorPrefixBitsIpv4, config.visitorPrefixBitsIpv6), log),
    metrics,
    mailer,
    webPush,
    calls,
    monitors: undefined,
    alerts: new Alerts({
      store: store.receipts, jobs: scheduler, publisher, retention: config.topicRetention,
      callbacks: new CallbackSender(surroundings.resolveHost, config.repeat.callbackAllowPrivate),
      mailer, caller: calls?.caller, log, baseUrl: config.baseUrl,
    }),
    web,
    docs,
  };
  ctx.monitors = monitorsOf(config, store, ctx);
  metrics?.watch(stateOf(ctx));
  // Completes with the store.
  feed.lost$?.subscribe((range) => interruptLiveStreams(ctx, range));

  const app = uws.App();
  registerWebSocket(app, ctx, webSocketGuards);
  const dashboard = metrics && config.enableDashboard ? registerDashboardFeed(app, ctx, metrics) : undefined;
  peering?.register(app, ctx);
  app.any('/*', (res, req) => {
    const info = snapshot(req, res);
    dispatch(ctx, new Exchange(res, onRefusal(ctx, info)), info);
  });
  // The jobs first: a database that fails while they are saved stops the start before the
  // server says it listens, not after (a node would otherwise exit while serving).
  await scheduler.start();
  const listenSocket = await listen(app, config.listenHttp.host, config.listenHttp.port).catch(async (err: unknown) => {
    await scheduler.stop();
    throw err;
  });
  const port = uws.us_socket_local_port(listenSocket);
  await peering?.start(port);
  log.info({ port, host: config.listenHttp.host || '*', cache: config.cacheFile || 'memory' }, `listening on ${config.listenHttp.host || '*'}:${port}`);
  const metricsSocket = metrics && config.metrics.listen ? await listenMetrics(metrics, config.metrics.listen, log) : undefined;
  const smtp = config.smtpServer && (await listenSmtp(ctx));
  if (smtp) log.info({ smtpPort: smtp.port, domain: config.smtpServer?.domain }, `SMTP listener on ${config.smtpServer?.listen.host || '*'}:${smtp.port}`);

  clusterLimits?.start();
  const nodeTimer = repeatLocally(() => nodeHousekeeping(ctx), config.managerIntervalMs);
  const dbPing = metrics && watchDatabasePing(() => store.ping(), metrics, log, config.managerIntervalMs);
  ctx.monitors?.start();

  let closing: Promise<void> | undefined;
  const close = (): Promise<void> =>
    (closing ??= (async () => {
      uws.us_listen_socket_close(listenSocket);
      if (metricsSocket) uws.us_listen_socket_close(metricsSocket);
      await smtp?.close(); // mails under way are published (or refused) before the drain
      await scheduler.stop();
      await nodeTimer.stop();
      await dbPing?.stop();
      await ctx.monitors?.stop();
      await clusterLimits?.stop();
      await publisher.drain();
      await peering?.stop();
      await mailer?.close();
      await webPush?.settled();
      await upstream?.settled();
      await ctx.calls?.caller.close();
      for (const connection of [...ctx.connections]) connection.end();
      dashboard?.close();
      ctx.connections.clear();
      await ctx.bans?.close();
      await stats.save();
      await store.close();
      log.info('stopped');
    })());
  return { port, metricsPort: metricsSocket && uws.us_socket_local_port(metricsSocket), smtpPort: smtp?.port, context: ctx, close };
}

/** The heartbeat monitors, when monitor-file is set (the config makes sure auth-file is too). */
function monitorsOf(config: Config, store: Stores, ctx: ServerContext): Monitors | undefined {
  if (!config.monitors || !store.monitors || !ctx.access) return undefined;
  const { limit, checkIntervalMs } = config.monitors;
  return new Monitors(store.monitors, { limit, checkEveryMs: checkIntervalMs, retention: config.topicRetention }, { publisher: ctx.publisher, access: ctx.access, log: ctx.log });
}

/** The Twilio gateway and the caller placing calls with it, when twilio-account is set. */
function phoneCalls(config: Config, log: Logger, metrics: Metrics | undefined): ServerContext['calls'] {
  if (!config.twilio) return undefined;
  const twilio = new TwilioGateway(config.twilio);
  return { twilio, caller: new Caller(twilio, config.twilio.callFormat, log, metrics) };
}

async function listenMetrics(metrics: Metrics, { host, port }: { host: string; port: number }, log: Logger): Promise<us_listen_socket> {
  const socket = await listen(metricsApp(metrics), host, port);
  log.info({ metricsPort: uws.us_socket_local_port(socket) }, `metrics on ${host || '*'}:${uws.us_socket_local_port(socket)}`);
  return socket;
}

/** The visitor registry; a bad network in proxy-trusted-hosts or the exempt hosts stops the start. */
function visitorsOf(config: Config, hub: TopicHub): Visitors {
  try {
    return new Visitors(config, { isLive: (topic) => hub.isLive(topic) });
  } catch (err) {
    throw new ConfigError(err instanceof Error ? err.message : String(err));
  }
}

/** Makes the auth store hold what server.yml provisions; a bad entry closes the stores and stops the start. */
async function provisionOrClose(stores: Stores, auth: AuthStore, config: Config): Promise<void> {
  try {
    await provision(auth, { users: config.authUsers, access: config.authAccess, tokens: config.authTokens, groups: config.authGroups });
  } catch (err) {
    await stores.close();
    throw new ConfigError(err instanceof Error ? err.message : String(err));
  }
}

/**
 * Listens with the port to itself: uWS otherwise sets SO_REUSEPORT, and a second server
 * started on a port in use would silently take half of its connections, each with its own
 * cache (ntfy fails with "address already in use"; so does Tocsin).
 */
function listen(app: ReturnType<typeof uws.App>, host: string, port: number): Promise<us_listen_socket> {
  return new Promise((resolve, reject) => {
    const done = (socket: us_listen_socket | false): void => {
      if (socket) resolve(socket);
      else reject(new ConfigError(`cannot listen on ${host || '*'}:${port}: the address is in use (or not this host's)`));
    };
    if (host) (app.listen.bind(app) as unknown as ListenOnHost)(host, port, exclusivePort, done);
    else app.listen(port, exclusivePort, done);
  });
}

/** uWS's LIBUS_LISTEN_EXCLUSIVE_PORT: its typings name the enum (ListenOptions) but export no value. */
const exclusivePort = 1 as ListenOptions;
/** listen(host, port, options, cb), which the binary has and the typings leave out. */
type ListenOnHost = (host: string, port: number, options: ListenOptions, cb: (socket: us_listen_socket | false) => void) => void;

function dispatch(ctx: ServerContext, ex: Exchange, req: ReturnType<typeof snapshot>): void {
  // Answered errors are logged by the Exchange (ctx.rejections), rate-limited.
  const fail = (err: unknown): void => {
    if (ex.aborted) ctx.log.debug({ err, method: req.method, path: req.path }, 'client went away');
    ex.error(err);
  };
  // A handler that ends without an error counts as answered (ntfy counts its handler's nil).
  const answered = (): void => ctx.metrics?.answered(req.method);
  try {
    if (headersTooLarge(req, ctx.config.messageSizeLimit)) return fail(errors.headerFieldsTooLarge); // before any route, guard or decoding
    const route = findRoute(req.method, req.path);
    if (!route) return fail(errors.notFound);
    const result = route.handle(ctx, ex, req, route.groups);
    if (result instanceof Promise) result.then(answered, fail);
    else answered();
  } catch (err) {
    fail(err);
  }
}
