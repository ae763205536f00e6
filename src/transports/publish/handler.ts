import { errors } from '../../model/errors.js';
import { sequenceEvent } from '../../model/message.js';
import type { ServerContext } from '../context.js';
import { readBody, type Body } from '../http/body.js';
import { BodyStream } from '../http/body-stream.js';
import { param } from '../http/params.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { admit, attachmentOwner, clientAddressOf, type Admitted } from '../admit.js';
import type { Outbound } from '../../model/outbound.js';
import { fromJsonBody } from './json-body.js';
import { expiresAt, namePattern, parsePublish } from './parse.js';
import { renderTemplated, templateBodyLimit } from './templated.js';
import { storeUpload } from './upload.js';

const noBody: Body = { bytes: Buffer.alloc(0), truncated: false };

/** PUT/POST /{topic}[/{sequence_id}] and GET /{topic}/publish|send|trigger. */
export async function handlePublish(ctx: ServerContext, ex: Exchange, req: RequestInfo, [topic, sequenceId]: string[]): Promise<void> {
  // A templated publish may send up to 32 KB of JSON, even past message-size-limit.
  const head = param(req, 'template') === '' ? ctx.config.messageSizeLimit : Math.max(ctx.config.messageSizeLimit, templateBodyLimit);
  const body = req.method === 'GET' ? undefined : new BodyStream(ex, head);
  try {
    const event = await publish(ctx, req, topic as string, sequenceId, body ? await body.head : noBody, body);
    ex.send(200, `${event.json}\n`);
  } catch (err) {
    body?.discard();
    throw err;
  }
}

/** PUT/POST / with a JSON body; ntfy allows twice the message limit for the JSON around it. */
export async function handlePublishJson(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = await readBody(ex, ctx.config.messageSizeLimit * 2);
  if (body.truncated) throw errors.entityTooLargeJsonBody;
  const json = fromJsonBody(req, body.bytes);
  if (!namePattern.test(json.topic)) throw errors.topicInvalid;
  const truncated = json.body.length > ctx.config.messageSizeLimit;
  const event = await publish(ctx, json.req, json.topic, undefined, { bytes: json.body, truncated });
  ex.send(200, `${event.json}\n`);
}

/**
 * A publish that did not come over HTTP (an e-mail, mail/inbound): a request made up from
 * it passes the same gate, parsing and pipeline; resolves with the published event.
 */
export function publishRequest(ctx: ServerContext, req: RequestInfo, topic: string, body: Body): Promise<Outbound> {
  return publish(ctx, req, topic, undefined, body);
}

/** `rest` holds the body past message-size-limit, for an upload. */
async function publish(ctx: ServerContext, req: RequestInfo, topic: string, sequenceId: string | undefined, body: Body, rest?: BodyStream): Promise<Outbound> {
  const startedAt = performance.now();
  const admitted = await admit(ctx, req, [topic], 'write');
  ctx.topics.admit([topic]);
  // Failures past the gate are ntfy's ntfy_messages_published_failure (its gate's refusals are not).
  const { event, unifiedPush } = await store(ctx, req, topic, sequenceId, body, rest, admitted).catch(ctx.metrics?.publishFailed);
  ctx.metrics?.published(startedAt, unifiedPush);
  return event;
}

/** Parses, checks the quotas, stores the upload and renders the template, then publishes. */
async function store(ctx: ServerContext, req: RequestInfo, topic: string, sequenceId: string | undefined, body: Body, rest: BodyStream | undefined, { visitor, user }: Admitted): Promise<{ event: Outbound; unifiedPush: boolean }> {
  const { message, cache, deliver, unifiedPush, upload, template, email } = parsePublish(req, body, topic, sequenceId, ctx.config);
  // UnifiedPush app servers must find a subscriber to bill (a 5xx, so Mastodon keeps the subscription).
  if (unifiedPush && ctx.config.visitorSubscriberRateLimiting && !ctx.visitors.payer(topic, Date.now())) throw errors.insufficientStorageUnifiedPush;
  visitor.message(Date.now());
  if (email) visitor.email(Date.now());
  if (upload) await storeUpload(ctx, req, message, upload.name, body, rest, { visitor, owner: attachmentOwner(user, visitor) });
  if (template) await renderTemplated(message, template, body, ctx.config);
  const event = await ctx.publisher.publish(message, { cache, deliver });
  if (email) ctx.mailer?.send(message, email, clientAddressOf(ctx, req)); // queued: the publisher never waits for the relay
  ctx.log.debug({ topic, id: message.id, cache, scheduled: !deliver }, 'published');
  return { event, unifiedPush };
}

/**
 * DELETE /{topic}/{sequence_id} (`message_delete`) and PUT/POST /{topic}/{sequence_id}/clear
 * (`message_clear`): an event stored and delivered like a message, answered with its JSON.
 * Storing a delete event also deletes a scheduled message still waiting under that sequence id.
 */
export function handleSequenceEvent(event: 'message_delete' | 'message_clear') {
  return async (ctx: ServerContext, ex: Exchange, req: RequestInfo, [topic, sequenceId]: string[]): Promise<void> => {
    const startedAt = performance.now();
    const { visitor } = await admit(ctx, req, [topic as string], 'write');
    ctx.topics.admit([topic as string]);
    const message = sequenceEvent(event, topic as string, sequenceId as string);
    const cache = ctx.config.cacheDurationMs > 0;
    if (cache) message.expires = expiresAt(message.time, ctx.config.cacheDurationMs);
    visitor.message(Date.now());
    const stored = await ctx.publisher.publish(message, { cache, deliver: true });
    ctx.metrics?.published(startedAt, false);
    ctx.log.debug({ topic, event, sequenceId }, 'sequence event');
    ex.send(200, `${stored.json}\n`);
  };
}
