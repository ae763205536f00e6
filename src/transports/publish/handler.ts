import { errors } from '../../model/errors.js';
import { sequenceEvent } from '../../model/message.js';
import type { Outbound } from '../../model/outbound.js';
import { clientAddressOf } from '../client.js';
import type { ServerContext } from '../context.js';
import type { UploadGuard } from '../guards/attachment-limits.js';
import { Gate, runGuards, type Guard, type ParsedPublish } from '../guards/guard.js';
import { readBody, type Body } from '../http/body.js';
import { BodyStream } from '../http/body-stream.js';
import { rawParam } from '../http/params.js';
import type { RequestInfo } from '../http/request.js';
import type { Handler } from '../routes.js';
import { fromJsonBody } from './json-body.js';
import { namePattern, parsePublish } from './parse.js';
import { renderTemplated, templateBodyLimit } from './templated.js';
import { storeUpload } from './upload.js';

/** A publish route's guards (routes.ts declares them), by where the data they check is. */
export interface PublishGuards {
  /** Once the topic is known (a JSON publish's is in its body). */
  request: readonly Guard[];
  /** Once the message is parsed. */
  message: readonly Guard<ParsedPublish>[];
  /** While an attachment's body streams in. */
  upload: UploadGuard;
}

const noBody: Body = { bytes: Buffer.alloc(0), truncated: false };

/** PUT/POST /{topic}[/{sequence_id}] and GET /{topic}/publish|send|trigger. */
export function handlePublish(guards: PublishGuards): Handler {
  return async (ctx, ex, req, [topic, sequenceId]) => {
    // A templated publish may send up to 32 KB of JSON, even past message-size-limit. Read
    // as sent: the guards have not run yet, and a refused request gets nothing decoded.
    const head = rawParam(req, 'template') === '' ? ctx.config.messageSizeLimit : Math.max(ctx.config.messageSizeLimit, templateBodyLimit);
    const body = req.method === 'GET' ? undefined : new BodyStream(ex, head);
    try {
      const event = await publish(ctx, req, topic as string, sequenceId, body ? await body.head : noBody, body, guards);
      ex.send(200, `${event.json}\n`);
    } catch (err) {
      body?.discard();
      throw err;
    }
  };
}

/** PUT/POST / with a JSON body; ntfy allows twice the message limit for the JSON around it. */
export function handlePublishJson(guards: PublishGuards): Handler {
  return async (ctx, ex, req) => {
    const body = await readBody(ex, ctx.config.messageSizeLimit * 2);
    if (body.truncated) throw errors.entityTooLargeJsonBody;
    const json = fromJsonBody(req, body.bytes);
    if (!namePattern.test(json.topic)) throw errors.topicInvalid;
    const truncated = json.body.length > ctx.config.messageSizeLimit;
    const event = await publish(ctx, json.req, json.topic, undefined, { bytes: json.body, truncated }, undefined, guards);
    ex.send(200, `${event.json}\n`);
  };
}

/**
 * A publish that did not come over HTTP (an e-mail, mail/inbound): a request made up from
 * it passes the same guards, parsing and pipeline; resolves with the published event.
 */
export function publishRequest(ctx: ServerContext, req: RequestInfo, topic: string, body: Body, guards: PublishGuards): Promise<Outbound> {
  return publish(ctx, req, topic, undefined, body, undefined, guards);
}

/** `rest` holds the body past message-size-limit, for an upload. */
async function publish(
  ctx: ServerContext,
  req: RequestInfo,
  topic: string,
  sequenceId: string | undefined,
  body: Body,
  rest: BodyStream | undefined,
  guards: PublishGuards,
): Promise<Outbound> {
  const startedAt = performance.now();
  const gate = new Gate(ctx, req, [topic]);
  await runGuards(guards.request, gate);
  // Failures past the request's guards are ntfy's ntfy_messages_published_failure (their refusals are not).
  const { event, unifiedPush } = await store(gate, topic, sequenceId, body, rest, guards).catch(ctx.metrics?.publishFailed);
  ctx.metrics?.published(startedAt, unifiedPush);
  return event;
}

/** Parses, runs the message's guards, stores the upload and renders the template, then publishes. */
async function store(gate: Gate, topic: string, sequenceId: string | undefined, body: Body, rest: BodyStream | undefined, guards: PublishGuards): Promise<{ event: Outbound; unifiedPush: boolean }> {
  const { ctx, req } = gate;
  const { message, cache, deliver, unifiedPush, upload, template, email, call, alert } = parsePublish(req, body, topic, sequenceId, ctx.config, gate.visitor.limits.messageExpiryMs);
  const parsed: ParsedPublish = { gate, unifiedPush, email, call, alert };
  await runGuards(guards.message, parsed); // the e-mail address and call-limit guards resolve the address to mail and the number to call
  if (upload) await storeUpload(gate, message, upload.name, body, rest, guards.upload);
  if (template) await renderTemplated(message, template, body, ctx.config);
  if (alert) ctx.alerts.prepare(message);
  const event = await ctx.publisher.publish(message, { cache, deliver, unifiedPush });
  if (alert) await ctx.alerts.start(message, alert, { address: clientAddressOf(ctx, req), user: gate.user?.name ?? '' });
  if (parsed.email) ctx.mailer?.send(message, parsed.email, clientAddressOf(ctx, req)); // queued: the publisher never waits for the relay
  if (parsed.call) ctx.calls?.caller.place(message, parsed.call, gate.user?.name ?? clientAddressOf(ctx, req)); // nor for Twilio
  ctx.log.debug({ topic, id: message.id, cache, scheduled: !deliver }, 'published');
  return { event, unifiedPush };
}

/**
 * DELETE /{topic}/{sequence_id} (`message_delete`) and PUT/POST /{topic}/{sequence_id}/clear
 * (`message_clear`): an event stored and delivered like a message, answered with its JSON.
 * Storing a delete event also deletes a scheduled message still waiting under that sequence id.
 */
export function handleSequenceEvent(event: 'message_delete' | 'message_clear', guards: Omit<PublishGuards, 'upload'>): Handler {
  return async (ctx, ex, req, [topic, sequenceId]) => {
    const startedAt = performance.now();
    const gate = new Gate(ctx, req, [topic as string]);
    await runGuards(guards.request, gate);
    const message = sequenceEvent(event, topic as string, sequenceId as string);
    const expires = ctx.config.topicRetention.expiresAt(message.time, message.topic, Infinity, gate.visitor.limits.messageExpiryMs);
    const cache = expires !== undefined;
    if (cache) message.expires = expires;
    await runGuards(guards.message, { gate, unifiedPush: false, email: undefined });
    const stored = await ctx.publisher.publish(message, { cache, deliver: true });
    ctx.metrics?.published(startedAt, false);
    ctx.log.debug({ topic, event, sequenceId }, 'sequence event');
    ex.send(200, `${stored.json}\n`);
  };
}
