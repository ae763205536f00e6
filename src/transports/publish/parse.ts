import { isUtf8 } from 'node:buffer';
import { errors, type HttpError } from '../../model/errors.js';
import { nowSeconds, randomId, type Attachment, type Message } from '../../model/message.js';
import { urlRefusal, type UrlUse } from '../../model/message-url.js';
import { parsePriority } from '../../model/priority.js';
import type { Body } from '../http/body.js';
import { boolParam, isBoolWord, isTrueWord, listParam, param } from '../http/params.js';
import type { RequestInfo } from '../http/request.js';
import { parseActions } from './actions.js';
import { parseFutureTime } from '../../model/future-time.js';
import { forwardAddress } from '../../mail/outbound/address.js';
import { phoneNumberPattern } from '../../calls/phone-number.js';
import type { TopicRetention } from '../../model/topic-retention.js';
import { parseTtl } from './ttl.js';
import { checkAlertActions, parseAlertRequest, type AlertRequest } from '../../alerts/alert-request.js';
import type { RepeatConfig } from '../../config/schema.js';

export interface PublishLimits {
  messageSizeLimit: number;
  /** Bytes of a title, and of all tags together (ntfy 2.28's caps). */
  messageTitleSizeLimit: number;
  messageTagsSizeLimit: number;
  messageDelayLimitMs: number;
  messageDelayMinMs: number;
  /** Each topic's cache duration (topic-retention, else cache-duration). */
  topicRetention: TopicRetention;
  /** Set when X-Email may be forwarded (smtp-sender-addr). */
  smtpSender: object | undefined;
  /** Set when X-Call may place calls (twilio-account). */
  twilio: object | undefined;
  /** Repeated alerts' bounds, and the base URL their Acknowledge button calls. */
  repeat: RepeatConfig;
  baseUrl: string;
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
  /** The body is JSON to render these templates against (`Template:`). */
  template?: TemplateRequest;
  /** Forward the message to this address once published (`X-Email`). */
  email?: string;
  /** Call this number once published (`X-Call`): a `+number`, or a boolean word for the user's first (see callLimit). */
  call?: string;
  /** Repeat until acknowledged (`Repeat`). */
  alert?: AlertRequest;
}

/**
 * A templated publish: a template file's name (`Template: grafana`), or with `Template: yes`
 * the message, title and priority parameters are the templates themselves.
 */
export interface TemplateRequest {
  /** Undefined for inline templates. */
  name: string | undefined;
  message: string;
  title: string;
  priority: string;
}

/** Topic names and sequence ids share ntfy's rule. */
export const namePattern = /^[-_A-Za-z0-9]{1,64}$/;

/**
 * Reads a publish request into a message, in ntfy's order of checks
 * (parsePublishParams, then handlePublishBody), so the first error is the one ntfy gives.
 * `ownExpiryMs` is the publisher's tier's message expiry (VisitorLimits.messageExpiryMs).
 */
export function parsePublish(req: RequestInfo, body: Body, topic: string, pathSequenceId: string | undefined, limits: PublishLimits, ownExpiryMs?: number): ParsedPublish {
  const now = nowSeconds();
  const message: Message = { id: randomId(), time: now, event: 'message', topic };
  const ttl = param(req, 'ttl');
  const ttlMs = ttl === '' ? undefined : parseTtl(ttl);
  let cache = boolParam(req, 'cache', true) && limits.topicRetention.expiresAt(now, topic) !== undefined;

  const sequenceId = pathSequenceId ?? param(req, 'sequenceId');
  if (sequenceId !== '') {
    if (!namePattern.test(sequenceId)) throw errors.sequenceIdInvalid;
    message.sequence_id = sequenceId;
  }
  const title = param(req, 'title');
  if (Buffer.byteLength(title) > limits.messageTitleSizeLimit) throw errors.titleTooLarge;
  if (title !== '') message.title = title;
  const click = param(req, 'click');
  if (click !== '') message.click = checkedUrl(click, 'open', errors.clickUrlInvalid);
  const filename = param(req, 'filename');
  const attach = param(req, 'attach');
  if (attach !== '') message.attachment = linked(checkedUrl(attach, 'fetch', errors.attachmentUrlInvalid), filename);
  const icon = param(req, 'icon');
  if (icon !== '') message.icon = checkedUrl(icon, 'fetch', errors.iconUrlInvalid);
  const email = emailOf(req, limits);
  const call = callOf(req, limits);
  const alert = parseAlertRequest(req, limits);
  if (alert && !limits.baseUrl) throw errors.missingBaseUrl; // the Acknowledge button's URL
  const text = param(req, 'message').replaceAll('\\n', '\n');
  const template = templateRequest(req, text);
  // An inline template's priority is itself a template; with a template file it is a priority, which the file may replace.
  const priority = template && template.name === undefined ? 0 : parsePriority(param(req, 'priority'));
  if (priority !== 0) message.priority = priority;
  const tags = listParam(req, 'tags');
  if (tags.reduce((bytes, tag) => bytes + Buffer.byteLength(tag), 0) > limits.messageTagsSizeLimit) throw errors.tagsTooLarge;
  if (tags.length > 0) message.tags = tags;
  const delay = param(req, 'delay');
  const deliver = delay === '';
  if (!deliver) {
    if (!cache) throw errors.delayNoCache;
    if (email !== '') throw errors.delayNoEmail; // the address is not stored with the message, as in ntfy
    if (call !== '') throw errors.delayNoCall; // nor the number
    message.time = delayedTime(delay, limits);
  }
  const actions = param(req, 'actions');
  if (actions !== '') message.actions = parseActions(actions);
  if (boolParam(req, 'markdown', false) || param(req, 'contentType').toLowerCase() === 'text/markdown') {
    message.content_type = 'text/markdown';
  }
  const unifiedPush = boolParam(req, 'unifiedPush', false) || param(req, 'contentEncoding') === 'aes128gcm';
  let upload: { name: string } | undefined;
  let templated: TemplateRequest | undefined;
  const pollId = param(req, 'pollId');
  const bodyIs = pollId === '' ? readBody(message, body, { unifiedPush, template: template !== undefined, filename, sizeLimit: limits.messageSizeLimit }) : 'dropped';
  if (bodyIs === 'dropped') {
    // An iOS poll request: the body is dropped and only the id travels (ntfy's newPollRequestMessage).
    message.event = 'poll_request';
    message.poll_id = pollId;
    message.message = 'New message';
    cache = false;
  } else if (bodyIs === 'upload') {
    if (text !== '') message.message = text; // else the upload names the file
    upload = { name: filename };
  } else if (bodyIs === 'template') {
    templated = template; // rendered by the handler, which sets the message
  } else if (message.message === undefined || message.message === '') {
    // A linked file with nothing else to say announces itself, as ntfy's handleBodyAsTextMessage.
    message.message = text || (message.attachment ? `You received a file: ${message.attachment.name}` : 'triggered');
  }
  if (cache) message.expires = limits.topicRetention.expiresAt(message.time, topic, ttlMs, ownExpiryMs);
  // A repeat copies a stored message, now: a scheduled, uncached or iOS poll one has none to copy.
  if (alert && (!deliver || !cache)) throw errors.repeatUnsupported;
  if (alert) checkAlertActions(message);
  return {
    message, cache, deliver, unifiedPush: boolParam(req, 'unifiedPush', false),
    ...(upload && { upload }), ...(templated && { template: templated }),
    // An iOS poll request is never mailed (ntfy drops the address), nor called.
    ...(email !== '' && pollId === '' && { email }),
    ...(call !== '' && pollId === '' && { call }),
    ...(alert && { alert }),
  };
}

/** X-Call: 40032 when this server places no calls, 40033 unless a `+number` or a boolean word (ntfy's order). */
function callOf(req: RequestInfo, limits: PublishLimits): string {
  const value = param(req, 'call');
  if (value === '') return '';
  if (!limits.twilio) throw errors.phoneCallsDisabled;
  if (!isBoolWord(value) && !phoneNumberPattern.test(value)) throw errors.phoneNumberInvalid;
  return value;
}

/** X-Email: 40001 when this server sends no mail, else one address (see forwardAddress). */
function emailOf(req: RequestInfo, limits: PublishLimits): string {
  const value = param(req, 'email');
  if (value === '') return '';
  if (!limits.smtpSender) throw errors.emailDisabled;
  return forwardAddress(value);
}

/** `Template:` a true word (inline), a false word or nothing (off), else a template file's name. */
function templateRequest(req: RequestInfo, text: string): TemplateRequest | undefined {
  const mode = param(req, 'template');
  if (mode === '' || (isBoolWord(mode) && !isTrueWord(mode))) return undefined;
  return { name: isTrueWord(mode) ? undefined : mode, message: text, title: param(req, 'title'), priority: param(req, 'priority') };
}

/** The URL, or `error` (ntfy's code for the field) when it may not be stored for its use (see urlRefusal). */
function checkedUrl(url: string, use: UrlUse, error: HttpError): string {
  if (urlRefusal(url, use) !== undefined) throw error;
  return url;
}

/** An attachment by URL (`X-Attach`): named after the URL unless a Filename is given; no size or expiry. */
function linked(url: string, filename: string): Attachment {
  return { name: filename || nameFromUrl(url), url };
}

/** Go's path.Base of the URL's path, as ntfy names a linked file: the last segment, trailing slashes aside. */
function nameFromUrl(url: string): string {
  let path: string;
  try {
    path = decodeURIComponent(new URL(url).pathname).replace(/\/+$/, '');
  } catch {
    return 'attachment';
  }
  const base = path.slice(path.lastIndexOf('/') + 1);
  return base === '' || base === '.' ? 'attachment' : base;
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
 * ntfy's handlePublishBody, in its order: what the body is. UnifiedPush and attachments by
 * URL make it the message (too large for one is refused; ntfy would cut it); a Filename
 * makes it a file to upload; `Template:` makes it JSON for the templates; otherwise a body
 * over message-size-limit or not UTF-8 is a file, and anything else the message (set here).
 */
function readBody(message: Message, body: Body, opts: { unifiedPush: boolean; template: boolean; filename: string; sizeLimit: number }): 'message' | 'upload' | 'template' {
  const { bytes } = body;
  // A templated publish reads a longer head (up to 32 KB of JSON): past the limit is too long for a message.
  const truncated = body.truncated || bytes.length > opts.sizeLimit;
  if (truncated && (opts.unifiedPush || message.attachment)) throw errors.attachmentsDisallowed;
  // ntfy's peek of message-size-limit bytes reports "limit reached" when it filled up, so a
  // body of exactly the limit is no message either.
  const atLimit = truncated || bytes.length >= opts.sizeLimit;
  if (opts.unifiedPush) {
    if (isUtf8(bytes)) {
      message.message = bytes.toString('utf8'); // UnifiedPush payloads are passed on untrimmed
    } else {
      message.message = bytes.toString('base64');
      message.encoding = 'base64';
    }
    return 'message';
  }
  if (!message.attachment) {
    if (opts.filename !== '') return 'upload';
    if (opts.template) return 'template';
    if (atLimit || !isUtf8(bytes)) return 'upload';
  }
  if (!isUtf8(bytes)) throw errors.messageNotUtf8;
  if (bytes.length > 0) message.message = bytes.toString('utf8').trim();
  return 'message';
}

