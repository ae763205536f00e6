import { decodeHeaderValue } from './rfc2047.js';
import type { RequestInfo } from './request.js';

/**
 * Every request parameter with its aliases, in ntfy's lookup order (server/server.go
 * readParam calls; the spec's parameter tables). A parameter is read from the headers
 * first, under any alias, then from the query string; names are case-insensitive.
 */
export const paramAliases = {
  message: ['x-message', 'message', 'm'],
  title: ['x-title', 'title', 'ti', 't'],
  sequenceId: ['x-sequence-id', 'sequence-id', 'sid'],
  priority: ['x-priority', 'priority', 'prio', 'p'],
  tags: ['x-tags', 'tags', 'tag', 'ta'],
  delay: ['x-delay', 'delay', 'x-at', 'at', 'x-in', 'in'],
  actions: ['x-actions', 'actions', 'action'],
  click: ['x-click', 'click'],
  attach: ['x-attach', 'attach', 'a'],
  markdown: ['x-markdown', 'markdown', 'md'],
  icon: ['x-icon', 'icon'],
  filename: ['x-filename', 'filename', 'file', 'f'],
  email: ['x-email', 'x-e-mail', 'email', 'e-mail', 'mail', 'e'],
  call: ['x-call', 'call'],
  cache: ['x-cache', 'cache'],
  ttl: ['x-ttl', 'ttl'],
  repeat: ['x-repeat', 'repeat'],
  repeatUntil: ['x-repeat-until', 'repeat-until'],
  callback: ['x-callback', 'callback'],
  escalate: ['x-escalate', 'escalate'],
  firebase: ['x-firebase', 'firebase', 'x-relay', 'relay'],
  unifiedPush: ['x-unifiedpush', 'unifiedpush', 'x-altpush', 'altpush', 'up'],
  template: ['x-template', 'template', 'tpl'],
  pollId: ['x-poll-id', 'poll-id'],
  contentType: ['content-type', 'content_type'],
  contentEncoding: ['content-encoding'],
  poll: ['x-poll', 'poll', 'po'],
  since: ['x-since', 'since', 'si'],
  scheduled: ['x-scheduled', 'scheduled', 'sched'],
  id: ['x-id', 'id'],
  // The account API's DELETE requests, which carry no body.
  token: ['x-token', 'token'],
  baseUrl: ['x-baseurl', 'baseurl'],
  topic: ['x-topic', 'topic'],
} as const satisfies Record<string, readonly string[]>;

export type ParamName = keyof typeof paramAliases;

/**
 * RFC 9218's `Priority` header (`u=3`, `u=1, i`), which browsers, HTTP libraries and
 * Cloudflare add, is a scheduling hint and no message priority: ntfy skips it and reads on.
 */
const httpPriorityHint = /^u=\d,\s*(i|\d)$|^u=\d$/;

/** Each parameter's index, and each alias's parameter's, for `present`. */
const paramIndex = new Map<ParamName, number>((Object.keys(paramAliases) as ParamName[]).map((name, i) => [name, i]));
const aliasIndex = new Map<string, number>(Object.entries(paramAliases).flatMap(([name, aliases]) => aliases.map((alias) => [alias, paramIndex.get(name as ParamName) as number])));
/** `present` keeps one bit per parameter in 32-bit words, as many as the table needs. */
const presentWords = Math.ceil(paramIndex.size / 32);
const presentKey = Symbol('parameters present');

/**
 * The bits of the parameters `req` names under any alias, from one pass over its few
 * headers and query parameters: a publish asks for twenty parameters, most of them absent,
 * and each absent one cost a lookup per alias in both maps. Kept on the request, not
 * enumerable, so a copy with other headers (`{ ...req, headers }`) works its own out.
 */
function present(req: RequestInfo): Uint32Array {
  const held = (req as { [presentKey]?: Uint32Array })[presentKey];
  if (held !== undefined) return held;
  const bits = new Uint32Array(presentWords);
  for (const name of req.headers.keys()) mark(bits, name);
  for (const name of req.query.keys()) mark(bits, name);
  Object.defineProperty(req, presentKey, { value: bits });
  return bits;
}

/** Sets the bit of `alias`'s parameter, if it is one (no closure per request: the publish path runs this). */
function mark(bits: Uint32Array, alias: string): void {
  const i = aliasIndex.get(alias);
  if (i !== undefined) bits[i >>> 5] = (bits[i >>> 5] as number) | (1 << (i & 31));
}

/** Whether `req` names the parameter under any alias. */
function isPresent(req: RequestInfo, name: ParamName): boolean {
  const i = paramIndex.get(name) as number;
  return ((present(req)[i >>> 5] as number) & (1 << (i & 31))) !== 0;
}

/** The parameter's trimmed value, or '' when absent. RFC 2047 encoded headers are decoded. */
export function param(req: RequestInfo, name: ParamName): string {
  return lookup(req, name, decodeHeaderValue);
}

/**
 * The parameter's trimmed value as sent, not RFC 2047 decoded, or '' when absent: for the
 * checks made before the guards run, which must not decode what a refused request sent.
 */
export function rawParam(req: RequestInfo, name: ParamName): string {
  return lookup(req, name, asSent);
}

const asSent = (value: string): string => value;

/** The first non-empty value under any alias, headers (read through `readHeader`) before the query. */
function lookup(req: RequestInfo, name: ParamName, readHeader: (value: string) => string): string {
  if (!isPresent(req, name)) return '';
  const aliases = paramAliases[name];
  for (const alias of aliases) {
    const value = req.headers.get(alias);
    if (value !== undefined) {
      const read = readHeader(value).trim();
      if (read !== '' && !(alias === 'priority' && httpPriorityHint.test(read))) return read;
    }
  }
  for (const alias of aliases) {
    const value = req.query.get(alias)?.trim();
    if (value) return value;
  }
  return '';
}

const trueWords = ['1', 'yes', 'true'];
const falseWords = ['0', 'no', 'false'];

/** ntfy's boolean words, case-insensitive: true for 1/yes/true. */
export function isTrueWord(value: string): boolean {
  return trueWords.includes(value.toLowerCase());
}

export function isBoolWord(value: string): boolean {
  return isTrueWord(value) || falseWords.includes(value.toLowerCase());
}

/** A boolean parameter: '' is the default; any other word but 1/yes/true is false, as in ntfy. */
export function boolParam(req: RequestInfo, name: ParamName, fallback: boolean): boolean {
  const value = param(req, name);
  return value === '' ? fallback : isTrueWord(value);
}

export function listParam(req: RequestInfo, name: ParamName): string[] {
  return param(req, name)
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}
