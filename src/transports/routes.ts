import { feedProbe } from '../dashboard/admission.js';
import { serveMetrics } from '../metrics/endpoint.js';
import { errors } from '../model/errors.js';
import type { ServerContext } from './context.js';
import type { RequestInfo } from './http/request.js';
import type { Exchange } from './http/respond.js';
import * as account from './account/account.js';
import * as admin from './account/admin.js';
import * as adminGroups from './account/admin-groups.js';
import * as adminTiers from './account/admin-tiers.js';
import * as adminTokens from './account/admin-tokens.js';
import * as emails from './account/emails.js';
import { requestPasswordReset, resetPassword } from './account/password-reset.js';
import * as phone from './account/phone.js';
import { finishSignOn, startSignOn } from './account/oidc.js';
import { getWebConfig, getWebConfigScript } from './account/web-config.js';
import { handleFile, type FileGuards } from './files.js';
import { attachmentLimits } from './guards/attachment-limits.js';
import { callLimit } from './guards/call-limit.js';
import { alertLimits } from './guards/alert-limits.js';
import { acknowledgeAlert, getReceipt } from './alerts.js';
import { authenticate, permission } from './guards/auth.js';
import { downloadBandwidth } from './guards/download-bandwidth.js';
import { emailAddress } from './guards/email-address.js';
import { emailLimit } from './guards/email-limit.js';
import { Gate, runGuards, type Guard } from './guards/guard.js';
import { messageLimit } from './guards/message-limit.js';
import { requestRate } from './guards/request-rate.js';
import { subscriptionLimit } from './guards/subscription-limit.js';
import { topicLimit } from './guards/topic-limit.js';
import { unifiedPushPayer } from './guards/unified-push.js';
import { isTrueWord, rawParam } from './http/params.js';
import { matrixDiscovery, matrixNotify, matrixPath } from './matrix.js';
import { deleteWebPush, updateWebPush } from './webpush.js';
import * as monitors from './monitors.js';
import { handlePublish, handlePublishJson, handleSequenceEvent, type PublishGuards } from './publish/handler.js';
import { handleStream } from './subscribe/http-stream.js';
import type { SubscribeGuards } from './subscribe/subscriber.js';
import { topicList } from './subscribe/topic-list.js';
import { serveDocs, servePage, serveStatic, serveStaticAt } from './web/pages.js';

export type Handler = (ctx: ServerContext, ex: Exchange, req: RequestInfo, groups: string[]) => void | Promise<void>;

interface Route {
  methods: readonly string[];
  pattern: RegExp;
  handle: Handler;
}

// ntfy's path rules (server.go): the same regexes its web app and Android client use.
const topic = '[-_A-Za-z0-9]{1,64}';
const topics = `${topic}(?:,${topic})*`;
const publishMethods = ['PUT', 'POST'];

const topicsPattern = (suffix: string): RegExp => new RegExp(`^/(${topics})/${suffix}$`);

/** The `a,b,c` list of `/{topics}/{suffix}` (for topicList), or undefined when the path is not one. */
export function topicsOf(path: string, suffix: string): string | undefined {
  return topicsPattern(suffix).exec(path)?.[1];
}

/*
 * The guards, in the order ntfy checks: who the request is (40101, 42909), one request
 * from its visitor's bucket (42901), whether it may read or write every topic (40301).
 * Each stage runs where its data is (see PublishGuards, SubscribeGuards, FileGuards).
 */
const reading: readonly Guard[] = [authenticate, requestRate('own'), permission('read')];
const writing: readonly Guard[] = [authenticate, requestRate('payer'), permission('write')];

/** A publish, and an e-mail's (mail/inbound), which is published as a POST would be. */
export const publishGuards: PublishGuards = {
  request: [...writing, topicLimit('publish')],
  message: [unifiedPushPayer, messageLimit, emailAddress, emailLimit, callLimit, alertLimits],
  upload: attachmentLimits,
};
const sequenceEventGuards = { request: publishGuards.request, message: [messageLimit] };

/** ntfy's handleSubscribeHTTP takes the subscription slot before it reads the parameters. */
const streamGuards: SubscribeGuards = {
  request: [...reading, subscriptionLimit],
  params: [topicLimit('subscribe')],
  accept: [],
};

/**
 * GET /{topics}/ws (subscribe/ws.ts): who may read before the parameters are read (and
 * their headers decoded), as ntfy's middleware; the topics and the slot right before the upgrade.
 */
export const webSocketGuards: SubscribeGuards = {
  request: reading,
  params: [],
  accept: [topicLimit('subscribe'), subscriptionLimit],
};

/** GET|HEAD /file/{id}: requests limited as ntfy's; the bytes sent paid by the uploader. */
const fileGuards: FileGuards = { request: [requestRate('own')], download: [downloadBandwidth] };

/** GET /{topics}/auth: whether the credentials may read the topics (ntfy's apps check a subscription with it). */
const checkAccess =
  (guards: readonly Guard[]): Handler =>
  async (ctx, ex, req, [list]) => {
    await runGuards(guards, new Gate(ctx, req, topicList(list as string, ctx.config.subscriptionTopicLimit)));
    ex.json({ success: true });
  };

/**
 * GET /{topic}: UnifiedPush discovery, else the web app for a browser (web/pages.ts), else
 * 404. No guard runs here, so `up=1` is read as sent, never decoded.
 */
const topicPage: Handler = (ctx, ex, req) => {
  if (isTrueWord(rawParam(req, 'unifiedPush'))) return ex.json({ unifiedpush: { version: 1 } });
  if (!servePage(ctx, ex, req, 'app')) throw errors.notFound;
};

/** GET / (and /{server}/{topic}): the web app for a browser; 404 otherwise, as before there was one. */
const homePage: Handler = (ctx, ex, req) => {
  if (!servePage(ctx, ex, req, 'app')) throw errors.notFound;
};

/** The pages of magic links: the web app's, never sending the token on as a Referer nor indexed (as ntfy's handleWebAppNoIndex). */
const linkPage: Handler = (ctx, ex, req) => {
  if (!servePage(ctx, ex, req, 'app', [['Referrer-Policy', 'no-referrer'], ['X-Robots-Tag', 'noindex']])) throw errors.notFound;
};

/** A file a link page loads from its own directory: the web build's file of that name (no token has a dot, so none is taken for one). */
const linkPageFile: Handler = (ctx, ex, req, [file]) => (file === 'config.js' ? getWebConfigScript(ctx, ex) : serveStaticAt(ctx, ex, req, `/${file as string}`));

/** GET /dashboard: the admin dashboard's page for a browser; otherwise a topic named dashboard. */
const dashboardPage: Handler = (ctx, ex, req, groups) => {
  if (!servePage(ctx, ex, req, 'dashboard')) return topicPage(ctx, ex, req, groups);
};

const stream =
  (format: 'json' | 'sse' | 'raw', guards: SubscribeGuards): Handler =>
  (ctx, ex, req, [list]) =>
    handleStream(ctx, format, guards, ex, req, topicList(list as string, ctx.config.subscriptionTopicLimit));

/** Every HTTP route, first match wins; WebSocket upgrades are handled in subscribe/ws.ts (webSocketGuards). */
export const routes: readonly Route[] = [
  { methods: ['GET'], pattern: /^\/v1\/health$/, handle: (_ctx, ex) => ex.json({ healthy: true }) },
  { methods: ['GET'], pattern: /^\/v1\/version$/, handle: admin.getVersion },
  { methods: ['GET'], pattern: /^\/v1\/config$/, handle: getWebConfig },
  { methods: ['GET'], pattern: /^\/config\.js$/, handle: getWebConfigScript },
  // The web app (web/): its page for a browser at / (and /{topic}, below), the files it loads, the dashboard's page.
  { methods: ['GET'], pattern: /^\/$/, handle: homePage },
  { methods: ['GET'], pattern: /^\/(?:static\/.+|[^/]+\.[A-Za-z0-9]+)$/, handle: serveStatic },
  { methods: ['GET'], pattern: /^\/dashboard$/, handle: dashboardPage },
  // The docs site (docs/), as ntfy serves its own at /docs.
  { methods: ['GET'], pattern: /^\/docs(?:\/(.*))?$/, handle: serveDocs },
  // The pages magic links open (ntfy 2.25), and the reset request's: the app's page, the token kept from referrers and indexes.
  { methods: ['GET'], pattern: /^\/account\/(?:email\/verify\/[-_A-Za-z0-9]+|password\/reset(?:\/[-_A-Za-z0-9]+)?)$/, handle: linkPage },
  // The admin pages (issue 38): below /account, a path no topic can take, as a topic named admin may exist.
  { methods: ['GET'], pattern: /^\/account\/admin$/, handle: homePage },
  // Their files: the build's URLs are relative (./static/…, ./config.js), so a page one to three levels down asks for them there.
  { methods: ['GET'], pattern: /^\/account\/(?:(?:email\/verify|password\/reset|password)\/)?(static\/.+|[^/]+\.[A-Za-z0-9]+)$/, handle: linkPageFile },
  // The app's page of another server's topic, ntfy's /{server}/{topic} (/ntfy.sh/alerts): the
  // server segment has a dot or a colon, which no topic and no other route's first segment has;
  // and the files that page asks for relative to it. `[^/.:]*` up to the first dot or colon
  // keeps the match linear: `[^/]*[.:]` would backtrack over every dot of a long path.
  { methods: ['GET'], pattern: new RegExp(`^/[^/.:]*[.:][^/]*/${topic}$`), handle: homePage },
  { methods: ['GET'], pattern: /^\/[^/.:]*[.:][^/]*\/(static\/.+|[^/]+\.[A-Za-z0-9]+)$/, handle: linkPageFile },
  // The account API (before the topic routes: /v1/... would read as /{topic}/{sequence_id}).
  { methods: ['POST'], pattern: /^\/v1\/account$/, handle: account.createAccount },
  { methods: ['GET'], pattern: /^\/v1\/account$/, handle: account.getAccount },
  { methods: ['DELETE'], pattern: /^\/v1\/account$/, handle: account.deleteAccount },
  { methods: ['POST'], pattern: /^\/v1\/account\/password$/, handle: account.changePassword },
  { methods: ['POST'], pattern: /^\/v1\/account\/token$/, handle: account.createToken },
  { methods: ['POST'], pattern: /^\/v1\/account\/login$/, handle: account.logIn },
  { methods: ['GET'], pattern: /^\/v1\/auth\/oidc\/login$/, handle: startSignOn },
  { methods: ['GET'], pattern: /^\/v1\/auth\/oidc\/callback$/, handle: finishSignOn },
  { methods: ['PATCH'], pattern: /^\/v1\/account\/token$/, handle: account.updateToken },
  { methods: ['DELETE'], pattern: /^\/v1\/account\/token$/, handle: account.deleteToken },
  { methods: ['PATCH'], pattern: /^\/v1\/account\/settings$/, handle: account.changeSettings },
  { methods: ['POST'], pattern: /^\/v1\/account\/subscription$/, handle: account.addSubscription },
  { methods: ['PATCH'], pattern: /^\/v1\/account\/subscription$/, handle: account.changeSubscription },
  { methods: ['DELETE'], pattern: /^\/v1\/account\/subscription$/, handle: account.deleteSubscription },
  { methods: ['POST'], pattern: /^\/v1\/account\/reservation$/, handle: account.addReservation },
  { methods: ['DELETE'], pattern: new RegExp(`^/v1/account/reservation/(${topic})$`), handle: account.deleteReservation },
  { methods: ['PUT'], pattern: /^\/v1\/account\/phone\/verify$/, handle: phone.verifyPhone },
  { methods: ['PUT'], pattern: /^\/v1\/account\/phone$/, handle: phone.addPhone },
  { methods: ['DELETE'], pattern: /^\/v1\/account\/phone$/, handle: phone.removePhone },
  { methods: ['PUT'], pattern: /^\/v1\/account\/email$/, handle: emails.addEmail },
  { methods: ['DELETE'], pattern: /^\/v1\/account\/email$/, handle: emails.removeEmail },
  { methods: ['POST'], pattern: /^\/v1\/account\/email\/verify$/, handle: emails.verifyEmail },
  { methods: ['POST'], pattern: /^\/v1\/account\/email\/primary$/, handle: emails.setPrimaryEmail },
  { methods: ['POST'], pattern: /^\/v1\/account\/email\/resend$/, handle: emails.resendEmail },
  { methods: ['POST'], pattern: /^\/v1\/account\/password\/reset\/request$/, handle: requestPasswordReset },
  { methods: ['POST'], pattern: /^\/v1\/account\/password\/reset$/, handle: resetPassword },
  { methods: ['GET'], pattern: /^\/v1\/users$/, handle: admin.listUsers },
  { methods: ['POST'], pattern: /^\/v1\/users$/, handle: admin.addUser },
  { methods: ['PUT'], pattern: /^\/v1\/users$/, handle: admin.updateUser },
  { methods: ['DELETE'], pattern: /^\/v1\/users$/, handle: admin.deleteUser },
  { methods: publishMethods, pattern: /^\/v1\/users\/access$/, handle: admin.allowAccess },
  { methods: ['DELETE'], pattern: /^\/v1\/users\/access$/, handle: admin.resetAccess },
  { methods: ['GET'], pattern: /^\/v1\/users\/tokens$/, handle: adminTokens.listUserTokens },
  { methods: ['DELETE'], pattern: /^\/v1\/users\/tokens$/, handle: adminTokens.revokeUserToken },
  { methods: ['GET'], pattern: /^\/v1\/groups$/, handle: adminGroups.listGroups },
  { methods: ['POST'], pattern: /^\/v1\/groups$/, handle: adminGroups.addGroup },
  { methods: ['DELETE'], pattern: /^\/v1\/groups$/, handle: adminGroups.removeGroup },
  { methods: ['PUT'], pattern: /^\/v1\/groups\/members$/, handle: adminGroups.addMember },
  { methods: ['DELETE'], pattern: /^\/v1\/groups\/members$/, handle: adminGroups.removeMember },
  { methods: ['GET'], pattern: /^\/v1\/tiers$/, handle: adminTiers.listTiers },
  { methods: ['POST'], pattern: /^\/v1\/tiers$/, handle: adminTiers.addTier },
  { methods: ['PUT'], pattern: /^\/v1\/tiers$/, handle: adminTiers.changeTier },
  { methods: ['DELETE'], pattern: /^\/v1\/tiers$/, handle: adminTiers.removeTier },
  { methods: ['POST'], pattern: /^\/v1\/webpush$/, handle: updateWebPush },
  { methods: ['DELETE'], pattern: /^\/v1\/webpush$/, handle: deleteWebPush },
  { methods: ['GET'], pattern: /^\/v1\/monitors$/, handle: monitors.listMonitors },
  { methods: ['POST'], pattern: /^\/v1\/monitors$/, handle: monitors.addMonitor },
  { methods: ['GET'], pattern: new RegExp(`^/v1/monitors/(${topic})$`), handle: monitors.getMonitor },
  { methods: ['PATCH'], pattern: new RegExp(`^/v1/monitors/(${topic})$`), handle: monitors.updateMonitor },
  { methods: ['DELETE'], pattern: new RegExp(`^/v1/monitors/(${topic})$`), handle: monitors.deleteMonitor },
  { methods: ['GET', 'POST', 'PUT'], pattern: new RegExp(`^/v1/heartbeat/(${topic})$`), handle: monitors.heartbeat },
  { methods: ['GET'], pattern: /^\/v1\/receipts\/([^/]+)$/, handle: getReceipt([authenticate, requestRate('own')]) },
  { methods: ['GET'], pattern: matrixPath, handle: matrixDiscovery },
  { methods: ['POST'], pattern: matrixPath, handle: matrixNotify(publishGuards) },
  {
    methods: ['GET'],
    pattern: /^\/v1\/stats$/,
    handle: (ctx, ex) => ex.json({ messages: ctx.stats.messages, messages_rate: ctx.stats.rate }),
  },
  { methods: ['GET', 'HEAD'], pattern: /^\/file\/([A-Za-z0-9]{1,64})(?:\.[A-Za-z0-9]{1,16})?$/, handle: handleFile(fileGuards) },
  { methods: publishMethods, pattern: /^\/$/, handle: handlePublishJson(publishGuards) },
  { methods: publishMethods, pattern: new RegExp(`^/(${topic})$`), handle: handlePublish(publishGuards) },
  { methods: publishMethods, pattern: new RegExp(`^/(${topic})/(${topic})$`), handle: handlePublish(publishGuards) },
  { methods: ['DELETE'], pattern: new RegExp(`^/(${topic})/(${topic})$`), handle: handleSequenceEvent('message_delete', sequenceEventGuards) },
  { methods: publishMethods, pattern: new RegExp(`^/(${topic})/(${topic})/(?:clear|read)$`), handle: handleSequenceEvent('message_clear', sequenceEventGuards) },
  { methods: publishMethods, pattern: new RegExp(`^/(${topic})/([^/]+)/ack$`), handle: acknowledgeAlert(reading) },
  { methods: ['GET'], pattern: new RegExp(`^/(${topic})/(?:publish|send|trigger)$`), handle: handlePublish(publishGuards) },
  { methods: ['GET'], pattern: topicsPattern('json'), handle: stream('json', streamGuards) },
  { methods: ['GET'], pattern: topicsPattern('sse'), handle: stream('sse', streamGuards) },
  { methods: ['GET'], pattern: topicsPattern('raw'), handle: stream('raw', streamGuards) },
  {
    methods: ['GET'],
    pattern: topicsPattern('ws'),
    handle: () => {
      throw errors.webSocketUpgradeMissing;
    },
  },
  { methods: ['GET'], pattern: topicsPattern('auth'), handle: checkAccess(reading) },
  // The dashboard feed's upgrade is dashboard/feed-socket.ts's; a plain GET lands here.
  { methods: ['GET'], pattern: /^\/v1\/dashboard\/ws$/, handle: feedProbe },
  // enable-metrics without metrics-listen-http, as ntfy; otherwise the reserved topic name it always is.
  { methods: ['GET'], pattern: /^\/metrics$/, handle: (ctx, ex, req, groups) => (ctx.metrics && ctx.config.metrics.enabled && !ctx.config.metrics.listen ? serveMetrics(ctx.metrics, ex) : topicPage(ctx, ex, req, groups)) },
  { methods: ['GET'], pattern: new RegExp(`^/(${topic})$`), handle: topicPage },
  {
    methods: ['OPTIONS'],
    pattern: /^\//,
    // CORS preflight, answered for any path like ntfy, so browsers on other origins may publish with headers.
    // The Fetch standard leaves Authorization out of `*`: named, a web app on another origin
    // (Tocsin's or ntfy's, subscribed to this server) may send its credentials in Firefox and Safari too.
    handle: (_ctx, ex) =>
      ex.send(200, '', 'text/plain', [
        ['Access-Control-Allow-Methods', 'GET, PUT, POST, PATCH, DELETE'],
        ['Access-Control-Allow-Headers', '*, Authorization'],
      ]),
  },
];

/** The routes of each method, in table order: a publish tries the ~25 of its method, not all ~70. */
const routesByMethod = new Map<string, Route[]>();
for (const route of routes) for (const method of route.methods) routesByMethod.set(method, [...(routesByMethod.get(method) ?? []), route]);

export function findRoute(method: string, path: string): { handle: Handler; groups: string[] } | undefined {
  for (const route of routesByMethod.get(method) ?? []) {
    const match = route.pattern.exec(path);
    if (match) return { handle: route.handle, groups: match.slice(1) };
  }
  return undefined;
}
