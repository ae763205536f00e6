import { Ajv } from 'ajv';
import { errors } from '../../model/errors.js';
import type { RequestInfo } from '../http/request.js';

/** The publish-as-JSON body (spec "Publish-as-JSON body"; ntfy's publishMessage). */
interface JsonPublish {
  topic?: string;
  message?: string;
  title?: string;
  priority?: number;
  tags?: (string | null)[];
  click?: string;
  icon?: string;
  actions?: object[];
  attach?: string;
  markdown?: boolean;
  filename?: string;
  delay?: string;
  email?: string;
  call?: string;
  cache?: string;
  ttl?: string;
  firebase?: string;
  sequence_id?: string;
  repeat?: string;
  repeat_until?: string;
  callback?: string;
  escalate?: string;
}

const str = { type: 'string' } as const;
const validate = new Ajv({ allErrors: false }).compile<JsonPublish>({
  type: 'object',
  properties: {
    topic: str,
    message: str,
    title: str,
    priority: { type: 'integer' },
    tags: { type: 'array', items: { type: ['string', 'null'] } },
    click: str,
    icon: str,
    actions: { type: 'array', items: { type: 'object' } },
    attach: str,
    markdown: { type: 'boolean' },
    filename: str,
    delay: str,
    email: str,
    call: str,
    cache: str,
    ttl: str,
    firebase: str,
    sequence_id: str,
    repeat: str,
    repeat_until: str,
    callback: str,
    escalate: str,
  },
});

/** JSON field → the header that carries the same parameter, so both paths share one parser. */
const headerOf: Partial<Record<keyof JsonPublish, string>> = {
  title: 'x-title',
  click: 'x-click',
  icon: 'x-icon',
  attach: 'x-attach',
  filename: 'x-filename',
  delay: 'x-delay',
  email: 'x-email',
  call: 'x-call',
  cache: 'x-cache',
  ttl: 'x-ttl',
  firebase: 'x-firebase',
  sequence_id: 'x-sequence-id',
  repeat: 'x-repeat',
  repeat_until: 'x-repeat-until',
  callback: 'x-callback',
  escalate: 'x-escalate',
};

export interface JsonPublishRequest {
  topic: string;
  /** The request as if the JSON fields had been sent as headers, as ntfy rewrites it. */
  req: RequestInfo;
  body: Buffer;
}

/**
 * Turns a JSON publish into the equivalent header request: ntfy does the same
 * (transformBodyJSON), which keeps every validation in one place.
 */
export function fromJsonBody(req: RequestInfo, raw: Buffer): JsonPublishRequest {
  let doc: unknown;
  try {
    doc = withoutNulls(JSON.parse(raw.toString('utf8')));
  } catch {
    throw errors.jsonInvalid;
  }
  if (!validate(doc)) {
    const e = validate.errors?.[0];
    throw errors.jsonInvalid.wrap(`${e?.instancePath || 'body'} ${e?.message ?? 'is invalid'}`.trim());
  }
  const headers = new Map(req.headers);
  for (const [field, header] of Object.entries(headerOf)) {
    const value = doc[field as keyof JsonPublish];
    if (typeof value === 'string' && value !== '') headers.set(header, value);
  }
  if (doc.priority) headers.set('x-priority', String(doc.priority));
  const tags = doc.tags?.filter((tag) => tag !== null) ?? [];
  if (tags.length > 0) headers.set('x-tags', tags.join(','));
  if (doc.markdown) headers.set('x-markdown', 'yes');
  if (doc.actions?.length) headers.set('x-actions', JSON.stringify(doc.actions));
  headers.delete('x-message');
  // No topic is an invalid topic (40009), as ntfy's topic check of the decoded body.
  const topic = doc.topic ?? '';
  return {
    topic,
    req: { ...req, headers, path: `/${topic}` },
    body: Buffer.from(doc.message || 'triggered'),
  };
}

/**
 * `null` is an absent field, as ntfy's Go decoder leaves it at its zero value: aiontfy
 * (Home Assistant's client) sends every unset field as null, and a `null` body is an empty one.
 */
function withoutNulls(doc: unknown): unknown {
  if (doc === null) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) return doc;
  return Object.fromEntries(Object.entries(doc).filter(([, value]) => value !== null));
}
