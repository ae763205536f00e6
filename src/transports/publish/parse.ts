import { isUtf8 } from 'node:buffer';
import { errors } from '../../model/errors.js';
import { nowSeconds, randomId, type Attachment, type Message } from '../../model/message.js';
import { parsePriority } from '../../model/priority.js';
import type { Body } from '../http/body.js';
import { boolParam, listParam, param } from '../http/params.js';
import type { RequestInfo } from '../http/request.js';
import { parseActions } from './actions.js';
import { parseFutureTime } from '../../model/future-time.js';

export interface PublishLimits {
  messageSizeLimit: number;
  messageDelayLimitMs: number;
  messageDelayMinMs: number;
  cacheDurationMs: number;
}

export interface ParsedPublish {
  message: Message;
  cache: boolean;
  /** False for a scheduled message. */
  deliver: boolean;
  /** Sent by a UnifiedPush app server (`up=1`). */
  unifiedPush: boolean;
  /** The body is a file to store as the message's attachment, under this name ('' for a default). */
  upload?: { name: string };
}

/** Topic names and sequence ids share ntfy's rule. */
export const namePattern = /^[-_A-Za-z0-9]{1,64}$/;
const httpUrl = /^https?:\/\//;

/**
 * Reads a publish request into a message, in ntfy's order of checks
 * (parsePublishParams, then handlePublishBody), so the first error is the one ntfy gives.
 */
export function parsePublish(req: RequestInfo, body: Body, topic: string, pathSequenceId: string | undefined, limits: PublishLimits): ParsedPublish {
  const now = nowSeconds();
  const message: Message = { id: randomId(), time: now, event: 'message', topic };
  let cache = boolParam(req, 'cache', true) && limits.cacheDurationMs > 0;

  const sequenceId = pathSequenceId ?? param(req, 'sequenceId');
  if (sequenceId !== '') {
    if (!namePattern.test(sequenceId)) throw errors.sequenceIdInvalid;
    message.sequence_id = sequenceId;
  }
  setIfPresent(message, 'title', param(req, 'title'));
  setIfPresent(message, 'click', param(req, 'click'));
  const filename = param(req, 'filename');
  const attach = param(req, 'attach');
  if (attach !== '') message.attachment = linked(attach, filename);
  const icon = param(req, 'icon');
  if (icon !== '') {
    if (!httpUrl.test(icon)) throw errors.iconUrlInvalid;
    message.icon = icon;
  }
  // Neither e-mail nor calls are configured in this server, so ntfy's answer is an error.
  if (param(req, 'email') !== '') throw errors.emailDisabled;
  if (param(req, 'call') !== '') throw errors.phoneCallsDisabled;
  const text = param(req, 'message').replaceAll('\\n', '\n');
  const priority = parsePriority(param(req, 'priority'));
  if (priority !== 0) message.priority = priority;
  const tags = listParam(req, 'tags');
  if (tags.length > 0) message.tags = tags;
  const delay = param(req, 'delay');
  const deliver = delay === '';
  if (!deliver) {
    if (!cache) throw errors.delayNoCache;
    message.time = delayedTime(delay, limits);
  }
  const actions = param(req, 'actions');
  if (actions !== '') message.actions = parseActions(actions);
  if (boolParam(req, 'markdown', false) || param(req, 'contentType').toLowerCase() === 'text/markdown') {
    message.content_type = 'text/markdown';
  }
  const template = boolParam(req, 'template', false);
  const unifiedPush = boolParam(req, 'unifiedPush', false) || param(req, 'contentEncoding') === 'aes128gcm';
  let upload: { name: string } | undefined;
  const pollId = param(req, 'pollId');
  if (pollId !== '') {
    // An iOS poll request: the body is dropped and only the id travels (ntfy's newPollRequestMessage).
    message.event = 'poll_request';
    message.poll_id = pollId;
    message.message = 'New message';
    cache = false;
  } else if (readBody(message, body, { unifiedPush, template, filename })) {
    if (text !== '') message.message = text; // else the upload names the file
    upload = { name: filename };
  } else if (message.message === undefined || message.message === '') {
    message.message = text || 'triggered';
  }
  if (cache) message.expires = expiresAt(message.time, limits.cacheDurationMs);
  return { message, cache, deliver, unifiedPush: boolParam(req, 'unifiedPush', false), ...(upload && { upload }) };
}

/** When a message cached at `time` leaves the cache. */
export function expiresAt(time: number, cacheDurationMs: number): number {
  return time + Math.floor(cacheDurationMs / 1000);
}

function setIfPresent(message: Message, field: 'title' | 'click', value: string): void {
  if (value !== '') message[field] = value;
}

/** An attachment by URL (`X-Attach`): named after the URL unless a Filename is given; no size or expiry. */
function linked(url: string, filename: string): Attachment {
  if (!httpUrl.test(url)) throw errors.attachmentUrlInvalid;
  return { name: filename || nameFromUrl(url), url };
}

function nameFromUrl(url: string): string {
  try {
    const base = new URL(url).pathname.split('/').pop() ?? '';
    return base === '' ? 'attachment' : decodeURIComponent(base);
  } catch {
    return 'attachment';
  }
}

/** Compared in whole seconds, as ntfy does, so "10s" is just long enough. */
function delayedTime(delay: string, limits: PublishLimits): number {
  const now = new Date();
  const at = Math.floor(parseFutureTime(delay, now).getTime() / 1000);
  const nowSec = Math.floor(now.getTime() / 1000);
  if (at < nowSec + Math.floor(limits.messageDelayMinMs / 1000)) throw errors.delayTooSmall;
  if (at > nowSec + Math.floor(limits.messageDelayLimitMs / 1000)) throw errors.delayTooLarge;
  return at;
}

/**
 * ntfy's handlePublishBody: whether the body is the message (it is set) or a file to
 * upload (true): a body with a Filename, a body over message-size-limit, or one that is
 * not UTF-8. With an attachment by URL or from UnifiedPush, a body too large for a
 * message is refused (ntfy would cut it).
 */
function readBody(message: Message, body: Body, opts: { unifiedPush: boolean; template: boolean; filename: string }): boolean {
  const { bytes, truncated } = body;
  if (truncated && (opts.unifiedPush || message.attachment)) throw errors.attachmentsDisallowed;
  if (opts.unifiedPush) {
    if (isUtf8(bytes)) {
      message.message = bytes.toString('utf8'); // UnifiedPush payloads are passed on untrimmed
    } else {
      message.message = bytes.toString('base64');
      message.encoding = 'base64';
    }
    return false;
  }
  if (!message.attachment && (opts.filename !== '' || truncated || !isUtf8(bytes))) return true;
  if (!isUtf8(bytes)) throw errors.messageNotUtf8;
  if (opts.template) {
    // Templating arrives with its own issue; until then it is refused, never ignored.
    if (!isJson(bytes)) throw errors.templateNotJson;
    throw errors.badRequest.wrap('message templating is not available on this server');
  }
  if (bytes.length > 0) message.message = bytes.toString('utf8').trim();
  return false;
}

function isJson(bytes: Buffer): boolean {
  try {
    JSON.parse(bytes.toString('utf8'));
    return true;
  } catch {
    return false;
  }
}
