import type { AccessControl } from '../../auth/access-control.js';
import type { User } from '../../model/access.js';
import { errors } from '../../model/errors.js';
import { nowSeconds, randomId } from '../../model/message.js';
import { Provisioned } from '../../store/auth-store.js';
import { clientAddressOf } from '../client.js';
import type { ServerContext } from '../context.js';
import { requestCredentials } from '../http/proxy-credentials.js';
import type { RequestInfo } from '../http/request.js';

/** The account API exists only with an auth-file (ntfy's ensureUserManager: 404 otherwise). */
export function accounts(ctx: ServerContext): AccessControl {
  if (!ctx.access) throw errors.notFound;
  return ctx.access;
}

/**
 * Who the request is; undefined for anonymous. A topic-scoped token is 40301 here: it is
 * for topics only, and the account API could otherwise make it an unscoped token.
 */
export async function currentUser(ctx: ServerContext, req: RequestInfo): Promise<User | undefined> {
  const user = await accounts(ctx).authenticate(requestCredentials(ctx, req), clientAddressOf(ctx, req));
  req.seen.user = user?.name;
  if (user?.scopes) throw errors.forbidden;
  return user;
}

/** The logged-in user, or 40101 (ntfy's ensureUser). */
export async function requireUser(ctx: ServerContext, req: RequestInfo): Promise<User> {
  const user = await currentUser(ctx, req);
  if (!user) throw errors.unauthorized;
  return user;
}

/** An admin, or 40101 (ntfy's ensureAdmin). */
export async function requireAdmin(ctx: ServerContext, req: RequestInfo): Promise<User> {
  const user = await currentUser(ctx, req);
  if (user?.role !== 'admin') throw errors.unauthorized;
  return user;
}

/**
 * Tells the user's other sessions (the web app listens on the account's sync topic) that
 * the account changed, as ntfy's withAccountSync does. Not cached: it is a nudge to reload.
 */
export async function syncAccount(ctx: ServerContext, user: User): Promise<void> {
  if (!user.syncTopic) return;
  const message = { id: randomId(), time: nowSeconds(), event: 'message' as const, topic: user.syncTopic, message: '{"event":"sync"}' };
  await ctx.publisher.publish(message, { cache: false, deliver: true });
}

/** A string field of a JSON body: '' when absent, 40024 when of another type (as Go's decoder). */
export function text(body: Record<string, unknown>, key: string): string {
  const value = body[key];
  if (value === undefined || value === null) return '';
  if (typeof value !== 'string') throw errors.jsonInvalid;
  return value;
}

/** An optional field of a JSON body of the given type; 40024 when of another type. */
export function optional<T extends 'string' | 'number'>(body: Record<string, unknown>, key: string, type: T): (T extends 'string' ? string : number) | undefined {
  const value = body[key];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== type || (type === 'number' && !Number.isInteger(value))) throw errors.jsonInvalid;
  return value as T extends 'string' ? string : number;
}

/** A change the store refuses because server.yml owns the user or token: 409, as ntfy. */
export async function unlessProvisioned<T>(change: Promise<T>): Promise<T> {
  try {
    return await change;
  } catch (err) {
    if (!(err instanceof Provisioned)) throw err;
    throw err.what === 'token' ? errors.provisionedTokenChange : errors.provisionedUserChange;
  }
}
