import { errors } from '../model/errors.js';
import type { ServerContext } from './context.js';
import { readBody } from './http/body.js';
import { parseQuery, type RequestInfo } from './http/request.js';
import { publishRequest, type PublishGuards } from './publish/handler.js';
import { namePattern } from './publish/parse.js';
import type { Handler } from './routes.js';

/**
 * The Matrix push gateway (spec.matrix.org push-gateway-api; ntfy's server_matrix.go): a
 * Matrix homeserver pushes to `/_matrix/push/v1/notify` with the device's pushkey, the
 * UnifiedPush endpoint `<base-url>/<topic>?up=1` its app registered, and the whole body
 * is published verbatim to that topic, as if POSTed there by the same client.
 */
export const matrixPath = /^\/_matrix\/push\/v1\/notify$/;

/** GET: UnifiedPush gateway discovery (unifiedpush.org/developers/gateway). */
export const matrixDiscovery: Handler = (ctx, ex) => {
  if (!ctx.config.baseUrl) throw errors.missingBaseUrl;
  ex.json({ unifiedpush: { gateway: 'matrix' } });
};

/**
 * POST: publishes the notification to the pushkey's topic and answers `{"rejected":[]}`;
 * a pushkey outside base-url is answered in `rejected` (the homeserver then stops using
 * it) and publishes nothing. Refusals of the publish itself (42901, 40301, 50701 ...) are
 * answered as errors, as ntfy does.
 */
export const matrixNotify =
  (guards: PublishGuards): Handler =>
  async (ctx, ex, req) => {
    if (!ctx.config.baseUrl) throw errors.missingBaseUrl;
    const body = await readBody(ex, ctx.config.messageSizeLimit);
    if (body.truncated) throw errors.entityTooLargeMatrixRequest;
    const pushKey = pushKeyOf(body.bytes);
    const target = targetOf(ctx, req, pushKey);
    if (!target) return ex.json({ rejected: [pushKey] });
    try {
      await publishRequest(ctx, target.req, target.topic, { bytes: body.bytes, truncated: false }, guards);
    } catch (err) {
      ctx.metrics?.matrixPublished(false);
      throw err;
    }
    ctx.metrics?.matrixPublished(true);
    ex.json({ rejected: [] });
  };

/** The first device's pushkey (ntfy ignores the others, see its issue #316); 40019 when there is none. */
function pushKeyOf(bytes: Buffer): string {
  let request: unknown;
  try {
    request = JSON.parse(bytes.toString('utf8'));
  } catch {
    throw errors.matrixMessageInvalid;
  }
  const devices = (request as { notification?: { devices?: unknown } } | null)?.notification?.devices;
  const pushKey = Array.isArray(devices) ? (devices[0] as { pushkey?: unknown } | null)?.pushkey : undefined;
  if (typeof pushKey !== 'string' || pushKey === '') throw errors.matrixMessageInvalid;
  return pushKey;
}

/**
 * The publish the pushkey names: its topic (the path segment after base-url; 40009 if it
 * is no topic) and a request made up from it, carrying the pushkey's query (`up=1`) and,
 * of the homeserver's own request, only what says who it is (credentials, the proxy's
 * forwarded address). Undefined for a pushkey outside base-url.
 */
function targetOf(ctx: ServerContext, req: RequestInfo, pushKey: string): { topic: string; req: RequestInfo } | undefined {
  const prefix = `${ctx.config.baseUrl}/`;
  if (!pushKey.startsWith(prefix)) return undefined;
  const rest = pushKey.slice(prefix.length).replace(/#.*$/s, '');
  const queryAt = rest.indexOf('?');
  const topic = (queryAt < 0 ? rest : rest.slice(0, queryAt)).split('/')[0] ?? '';
  const query = queryAt < 0 ? '' : rest.slice(queryAt + 1);
  if (!namePattern.test(topic)) throw errors.topicInvalid;
  const headers = new Map<string, string>();
  for (const name of ['authorization', ctx.config.proxyForwardedHeader.toLowerCase()]) {
    const value = req.headers.get(name);
    if (value !== undefined) headers.set(name, value);
  }
  return { topic, req: { ...req, method: 'POST', path: `/${topic}`, headers, query: parseQuery(query) } };
}
