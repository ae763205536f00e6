/**
 * Topic-scoped tokens (Tocsin's own; an ntfy token carries its user's full rights): a token
 * with scopes may do only what one of them allows, and never more than its user may.
 */
import { errors } from './errors.js';
import { parsePermission, permissionName, topicPatternPattern, topicPatternRegExp, type Permission } from './access.js';

/** One scope: a topic or pattern (`*` the only wildcard, as access entries) and what it allows there. */
export interface TokenScope {
  topic: string;
  permission: Permission;
}

/**
 * Scopes one token carries at most: each request with the token matches its topics against
 * every scope, so the list is bounded; 16 is far more than a CI job's handful of topics.
 */
export const maxTokenScopes = 16;

/**
 * Scopes as `POST /v1/account/token` takes them (`[{"topic":"deploys","permission":"write-only"}]`):
 * 40024 for another shape, 40009 for a bad topic or pattern, 40025 for a bad permission
 * word, 40093 for an empty list or more than maxTokenScopes.
 */
export function parseScopes(value: unknown): TokenScope[] {
  if (!Array.isArray(value)) throw errors.jsonInvalid;
  if (value.length === 0 || value.length > maxTokenScopes) throw errors.tokenScopesInvalid;
  return value.map((item: unknown) => {
    if (typeof item !== 'object' || item === null || Array.isArray(item)) throw errors.jsonInvalid;
    const { topic, permission } = item as Record<string, unknown>;
    if (typeof topic !== 'string' || typeof permission !== 'string') throw errors.jsonInvalid;
    return scope(topic, permission);
  });
}

/** A scope as the CLI takes it, `TOPIC:PERMISSION` (`deploys:wo`); the same errors as parseScopes. */
export function parseScopeFlag(flag: string): TokenScope {
  const colon = flag.lastIndexOf(':');
  if (colon < 0) throw errors.permissionInvalid;
  return scope(flag.slice(0, colon), flag.slice(colon + 1));
}

function scope(topic: string, word: string): TokenScope {
  if (!topicPatternPattern.test(topic)) throw errors.topicInvalid;
  const permission = parsePermission(word);
  if (!permission) throw errors.permissionInvalid;
  return { topic, permission };
}

/**
 * Whether the scopes let a request `want` `topic`: the most specific scope that matches
 * decides (the longest pattern, then write before read), as access entries are decided;
 * none matching refuses.
 */
export function scopesAllow(scopes: readonly TokenScope[], topic: string, want: keyof Permission): boolean {
  let best: TokenScope | undefined;
  for (const s of scopes) {
    if (!topicPatternRegExp(s.topic).test(topic)) continue;
    if (!best || s.topic.length > best.topic.length || (s.topic.length === best.topic.length && s.permission.write && !best.permission.write)) best = s;
  }
  return best?.permission[want] ?? false;
}

/** The scopes as JSON answers and the CLI show them: ntfy's permission names. */
export function scopesJson(scopes: readonly TokenScope[]): { topic: string; permission: string }[] {
  return scopes.map((s) => ({ topic: s.topic, permission: permissionName(s.permission) }));
}

/** Stored form (a text column or a document field): the same JSON the API answers with. */
export function encodeScopes(scopes: readonly TokenScope[] | undefined): string {
  return scopes?.length ? JSON.stringify(scopesJson(scopes)) : '';
}

/** What encodeScopes wrote; '' (an unscoped token) gives undefined. */
export function decodeScopes(stored: string | null | undefined): TokenScope[] | undefined {
  return stored ? parseScopes(JSON.parse(stored)) : undefined;
}

/** A stored token row with its `scopes` column decoded; an unscoped token's row gets no `scopes`. */
export function withScopes<T extends { scopes?: string | null }>({ scopes, ...row }: T): Omit<T, 'scopes'> & { scopes?: TokenScope[] } {
  const decoded = decodeScopes(scopes);
  return { ...row, ...(decoded && { scopes: decoded }) };
}
