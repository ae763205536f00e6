import { errors } from '../model/errors.js';
import type { WebPush } from '../push/web-push.js';
import { TooManyWebPushSubscriptions } from '../store/webpush-store.js';
import { clientAddressOf } from './client.js';
import type { ServerContext } from './context.js';
import { authenticate, permission } from './guards/auth.js';
import { Gate, runGuards } from './guards/guard.js';
import { requestRate } from './guards/request-rate.js';
import { readJson } from './http/body.js';
import type { Exchange } from './http/respond.js';
import type { RequestInfo } from './http/request.js';
import { namePattern } from './publish/parse.js';

/** ntfy's webPushTopicSubscribeLimit: topics one browser subscription may list. */
export const webPushTopicLimit = 50;

/**
 * POST /v1/webpush: ntfy's web app registers the browser's push subscription for the
 * topics it shows (`{"endpoint","auth","p256dh","topics":[...]}`, all of them each time),
 * which it may read; the endpoint must be a known push service's, at a public address
 * (40039, see WebPush.refusalOf), at most 50
 * topics (40040). A second registration of the endpoint replaces the first, and renews it.
 */
export async function updateWebPush(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const webPush = enabled(ctx);
  const { endpoint, auth, p256dh, topics } = await subscriptionOf(body);
  if (auth === '' || p256dh === '') throw errors.webPushSubscriptionInvalid;
  refuseUnless(webPush.refusalOf(endpoint));
  if (topics.length > webPushTopicLimit) throw errors.webPushTopicCountTooHigh;
  if (!topics.every((t) => namePattern.test(t))) throw errors.topicInvalid;
  const gate = new Gate(ctx, req, topics);
  await runGuards([authenticate, requestRate('own'), permission('read')], gate);
  // A DNS lookup is the one costly check: only for a client the guards let through.
  refuseUnless(await webPush.hostRefusalOf(endpoint));
  try {
    await webPush.store.upsert({ endpoint, auth, p256dh, topics, userId: gate.user?.name ?? '', subscriberIp: clientAddressOf(ctx, req) }, Math.floor(Date.now() / 1000));
  } catch (err) {
    // ntfy answers 500 here; the client made too many, so Tocsin says so.
    throw err instanceof TooManyWebPushSubscriptions ? errors.tooManyRequests.wrap(err.message) : err;
  }
  ex.json({ success: true });
}

/** DELETE /v1/webpush: the browser unsubscribed (`{"endpoint"}`); its subscription goes, whoever asks, as in ntfy. */
export async function deleteWebPush(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const webPush = enabled(ctx);
  const { endpoint } = await subscriptionOf(body);
  await runGuards([authenticate, requestRate('own')], new Gate(ctx, req, []));
  await webPush.store.removeByEndpoint(endpoint);
  ex.json({ success: true });
}

/** 40039, saying why: ntfy's code for an endpoint not at a push service it allows. */
function refuseUnless(refusal: string | undefined): void {
  if (refusal !== undefined) throw errors.webPushEndpointUnknown.wrap(refusal);
}

/** 404 without web push, as ntfy's ensureWebPushEnabled. */
function enabled(ctx: ServerContext): WebPush {
  if (!ctx.webPush) throw errors.notFound;
  return ctx.webPush;
}

/** The request body's fields; any malformed body (not JSON, too large, wrong types, no endpoint) is 40038, as ntfy. */
async function subscriptionOf(body: Promise<Record<string, unknown>>): Promise<{ endpoint: string; auth: string; p256dh: string; topics: string[] }> {
  const fields = await body.catch(() => {
    throw errors.webPushSubscriptionInvalid;
  });
  const text = (name: string): string => {
    const value = fields[name] ?? '';
    if (typeof value !== 'string') throw errors.webPushSubscriptionInvalid;
    return value;
  };
  const topics = fields.topics ?? [];
  if (!Array.isArray(topics) || !topics.every((t): t is string => typeof t === 'string')) throw errors.webPushSubscriptionInvalid;
  const endpoint = text('endpoint');
  if (endpoint === '') throw errors.webPushSubscriptionInvalid;
  return { endpoint, auth: text('auth'), p256dh: text('p256dh'), topics };
}
