import { actionLimits, maxActions, type Action, type ActionType } from '../../model/action.js';
import { errors } from '../../model/errors.js';
import { randomId } from '../../model/message.js';
import { urlRefusal } from '../../model/message-url.js';
import { isBoolWord, isTrueWord } from '../http/params.js';

/**
 * Action buttons from the `Actions` header (docs/publish.md "Action buttons"): a JSON
 * array, or the short format — actions separated by `;`, fields by `,`, each field
 * `key=value` or a bare value that means action, label, then url (or value for copy).
 * Values may be quoted with " or ' (a backslash escapes the quote), which allows `,` and `;`.
 */
export function parseActions(input: string): Action[] {
  const s = input.trim();
  const drafts = s.startsWith('[') ? fromJson(s) : fromShort(s);
  if (drafts.length > maxActions) throw invalid(`only ${maxActions} actions allowed`);
  return drafts.map(finish);
}

type Draft = Partial<Omit<Action, 'id' | 'action'>> & { action?: string };

const types: readonly ActionType[] = ['view', 'broadcast', 'http', 'copy'];
const stringFields = ['action', 'label', 'url', 'method', 'body', 'intent', 'value'] as const;
const mapFields = ['headers', 'extras'] as const;

const invalid = (detail: string): Error => errors.actionsInvalid.wrap(detail);

function fromJson(s: string): Draft[] {
  let doc: unknown;
  try {
    doc = JSON.parse(s);
  } catch (err) {
    throw invalid(`JSON error: ${(err as Error).message}`);
  }
  if (!Array.isArray(doc)) throw invalid('JSON error: expected an array of actions');
  return doc.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw invalid('JSON error: each action must be an object');
    const source = item as Record<string, unknown>;
    const draft: Draft = {};
    for (const field of stringFields) {
      const value = source[field];
      if (value === undefined || value === null) continue; // null is absent, as Go decodes it
      if (typeof value !== 'string') throw invalid(`JSON error: '${field}' must be a string`);
      draft[field] = value;
    }
    for (const field of mapFields) {
      const value = source[field];
      if (value === undefined || value === null) continue;
      if (typeof value !== 'object' || Array.isArray(value) || !Object.values(value).every((v) => typeof v === 'string')) {
        throw invalid(`JSON error: '${field}' must be an object of strings`);
      }
      draft[field] = { ...(value as Record<string, string>) };
    }
    if (source.clear !== undefined && source.clear !== null) {
      if (typeof source.clear !== 'boolean') throw invalid("JSON error: 'clear' must be a boolean");
      draft.clear = source.clear;
    }
    return draft;
  });
}

const keyPattern = /^([-.\w]+)\s*=\s*/;
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';

/** A small scanner over the short format; `pos` only moves forward. */
function fromShort(s: string): Draft[] {
  const drafts: Draft[] = [];
  let pos = 0;
  const skipSpaces = (): void => {
    while (isSpace(s[pos])) pos++;
  };
  /** Reads one field; returns whether it was the action's last (`;` or end). */
  const field = (draft: Draft, index: number): boolean => {
    skipSpaces();
    const key = keyPattern.exec(s.slice(pos));
    if (key) pos += key[0].length;
    let value: string;
    const quote = s[pos];
    if (quote === '"' || quote === "'") {
      const start = ++pos;
      while (pos < s.length && !(s[pos] === quote && s[pos - 1] !== '\\')) pos++;
      if (pos >= s.length) throw invalid(`unexpected end of input, quote started at position ${start}`);
      value = s.slice(start, pos++).replaceAll(`\\${quote}`, quote);
      skipSpaces();
      if (pos < s.length && s[pos] !== ',' && s[pos] !== ';') throw invalid(`unexpected character '${s[pos]}' at position ${pos}`);
    } else {
      const start = pos;
      while (pos < s.length && s[pos] !== ',' && s[pos] !== ';') pos++;
      value = s.slice(start, pos).trim();
    }
    const last = pos >= s.length || s[pos] === ';';
    pos++;
    assign(draft, index, key?.[1], value);
    return last;
  };
  while (pos < s.length) {
    const draft: Draft = {};
    for (let index = 0; !field(draft, index); index++);
    drafts.push(draft);
    skipSpaces();
  }
  return drafts;
}

/** Applies one short-format field; bare values are named by their position. */
function assign(draft: Draft, index: number, key: string | undefined, value: string): void {
  const positional = ['action', 'label', draft.action?.toLowerCase() === 'copy' ? 'value' : 'url'];
  const name = key ?? (index < 3 && (index < 2 || draft.action?.toLowerCase() !== 'broadcast') ? positional[index] : undefined);
  if (name === undefined) throw invalid(`term '${value}' unknown`);
  if (name.startsWith('headers.')) (draft.headers ??= {})[name.slice('headers.'.length)] = value;
  else if (name.startsWith('extras.')) (draft.extras ??= {})[name.slice('extras.'.length)] = value;
  else if (name.toLowerCase() === 'clear') draft.clear = parseClear(value);
  else {
    const known = stringFields.find((f) => f === name.toLowerCase());
    if (!known) throw invalid(`key '${name}' unknown`);
    draft[known] = value;
  }
}

function parseClear(value: string): boolean {
  if (isBoolWord(value)) return isTrueWord(value);
  throw invalid(`parameter 'clear' cannot be '${value}', only boolean values are allowed (true/yes/1/false/no/0)`);
}

/** Validates a draft and builds the action in ntfy's key order. */
function finish(d: Draft): Action {
  const type = (d.action ?? '').toLowerCase();
  if (!types.includes(type as ActionType)) {
    throw invalid(`parameter 'action' cannot be '${d.action ?? ''}', valid values are 'view', 'broadcast', 'http' and 'copy'`);
  }
  const method = d.method?.toUpperCase();
  if (!d.label) throw invalid("parameter 'label' is required");
  if ((type === 'view' || type === 'http') && !d.url) throw invalid(`parameter 'url' is required for action '${type}'`);
  if (type === 'copy' && !d.value) throw invalid("parameter 'value' is required for action 'copy'");
  if (type === 'http' && (method === 'GET' || method === 'HEAD') && d.body) throw invalid(`parameter 'body' cannot be set if method is ${method}`);
  checkBounds(d);
  if (d.url) {
    // A view button opens its URL like a link; an http button's request is made by the app itself.
    const refusal = urlRefusal(d.url, type === 'view' ? 'open' : 'fetch');
    if (refusal !== undefined) throw invalid(`parameter 'url' is invalid: ${refusal}`);
  }
  const action: Action = { id: randomId(10), action: type as ActionType, label: d.label, clear: d.clear ?? false };
  if (d.url) action.url = d.url;
  if (method) action.method = method;
  if (d.headers && Object.keys(d.headers).length > 0) action.headers = d.headers;
  if (d.body) action.body = d.body;
  if (d.intent) action.intent = d.intent;
  if (d.extras && Object.keys(d.extras).length > 0) action.extras = d.extras;
  if (d.value) action.value = d.value;
  return action;
}

/** actionLimits: each text field, and each header's and extra's name and value. */
function checkBounds(d: Draft): void {
  const { label, text, entries, key } = actionLimits;
  if ((d.label?.length ?? 0) > label) throw invalid(`parameter 'label' is longer than ${label} characters`);
  for (const field of ['body', 'intent', 'value'] as const) {
    if ((d[field]?.length ?? 0) > text) throw invalid(`parameter '${field}' is longer than ${text} characters`);
  }
  for (const field of mapFields) {
    const map = Object.entries(d[field] ?? {});
    if (map.length > entries) throw invalid(`parameter '${field}' has more than ${entries} entries`);
    if (map.some(([name, value]) => name.length > key || value.length > text)) throw invalid(`parameter '${field}' has a name longer than ${key} or a value longer than ${text} characters`);
  }
}
