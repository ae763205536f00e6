import type { Credentials } from '../../auth/access-control.js';
import { errors } from '../../model/errors.js';
import type { RequestInfo } from './request.js';

/**
 * The credentials of a request (ntfy's readAuthHeader and authenticate): the
 * Authorization header, or the `auth` query parameter holding that whole header value in
 * unpadded base64 (browsers cannot set headers on EventSource or WebSocket). `Basic` with
 * an empty user name carries a token as the password. Other schemes are anonymous.
 */
export function credentials(req: RequestInfo): Credentials {
  const value = authorizationValue(req);
  const lower = value.toLowerCase();
  if (lower.startsWith('bearer ')) return { kind: 'token', token: value.slice(7).trim() };
  if (!lower.startsWith('basic ')) return { kind: 'anonymous' };
  const decoded = Buffer.from(value.slice(6).trim(), 'base64').toString('utf8');
  const colon = decoded.indexOf(':');
  if (colon < 0) throw errors.unauthorized;
  const username = decoded.slice(0, colon);
  const password = decoded.slice(colon + 1);
  return username === '' ? { kind: 'token', token: password } : { kind: 'password', username, password };
}

function authorizationValue(req: RequestInfo): string {
  const query = req.query.get('auth') ?? req.query.get('authorization');
  if (query === undefined || query === '') return (req.headers.get('authorization') ?? '').trim();
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(query)) throw errors.unauthorized;
  return Buffer.from(query, 'base64url').toString('utf8').trim();
}
