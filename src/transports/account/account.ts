import bcrypt from 'bcryptjs';
import { bcryptCost, newToken, parsePermission, permissionName, usernamePattern, type User } from '../../model/access.js';
import type { AccountSubscription, Prefs } from '../../model/account.js';
import { errors } from '../../model/errors.js';
import { nowSeconds } from '../../model/message.js';
import { parseScopes, scopesJson, type TokenScope } from '../../model/token-scope.js';
import type { Token } from '../../store/auth-store.js';
import { attachmentOwner, clientAddressOf, visitorOf } from '../client.js';
import type { ServerContext } from '../context.js';
import { readJson } from '../http/body.js';
import { credentials } from '../http/credentials.js';
import { param } from '../http/params.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { namePattern } from '../publish/parse.js';
import { mailLink } from './account-mail.js';
import { addressOf, emailsJson } from './emails.js';
import { accountLimits, accountStats } from './limits.js';
import { accounts, currentUser, optional, requireUser, syncAccount, text, unlessProvisioned } from './session.js';

/** A token made or extended without an expiry lasts login-token-duration (ntfy's tokenExpiryDuration, 72 h). */
const loginTokenExpiry = (ctx: ServerContext): number => nowSeconds() + Math.floor(ctx.config.loginTokenDurationMs / 1000);
const success = { success: true };

/**
 * POST /v1/account: sign up (with enable-signup), or an admin adding a user. An optional
 * `email` (40050 when not one address) gets a verification link, best effort, as ntfy 2.25:
 * a mail that cannot be queued does not undo the account.
 */
export async function createAccount(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const user = await currentUser(ctx, req);
  const signup = user?.role !== 'admin';
  if (signup) {
    if (!ctx.config.enableSignup) throw errors.signupNotEnabled;
    if (user) throw errors.unauthorized;
    if (!accounts(ctx).accountActions.allows(clientAddressOf(ctx, req))) throw errors.tooManyAccountActions;
  }
  const fields = await body;
  const username = text(fields, 'username');
  const password = text(fields, 'password');
  const email = text(fields, 'email') === '' ? undefined : addressOf(fields);
  if (!usernamePattern.test(username) || password === '') throw errors.usernameInvalid;
  const store = accounts(ctx).store;
  if (await store.user(username)) throw errors.userExists;
  await store.addUser(username, await bcrypt.hash(password, bcryptCost), 'user');
  if (signup) accounts(ctx).accountActions.take(clientAddressOf(ctx, req));
  if (email && ctx.mailer) await mailLink(ctx, ctx.mailer, 'email-verify', username, email).catch((err: unknown) => ctx.log.warn({ err, user_name: username }, 'sign-up: verification link not sent'));
  ex.json(success);
}

/** GET /v1/account: who the visitor is and what they may do; anonymous visitors get their limits. */
export async function getAccount(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const user = await currentUser(ctx, req);
  const store = accounts(ctx).store;
  const limits = accountLimits(ctx.config, user);
  const reservations = user ? await store.reservations(user.name) : [];
  const visitor = visitorOf(ctx, req, user);
  const attachmentTotalSize = ctx.attachments ? await ctx.attachments.usage(attachmentOwner(user, visitor)) : 0;
  const now = Date.now();
  const stats = accountStats(limits, { messages: visitor.messages(now), emails: visitor.emails(now), calls: visitor.calls(now), reservations: reservations.length, attachmentTotalSize });
  if (!user) {
    ex.json({ username: '*', role: 'anonymous', limits, stats });
    return;
  }
  const tokens = await store.tokens(user.name);
  const phoneNumbers = ctx.calls ? await store.phoneNumbers(user.name) : []; // listed only while calls are on, as ntfy
  const emails = ctx.mailer ? await store.emails(user.name) : []; // and addresses while mail goes out
  ex.json({
    username: user.name,
    role: user.role,
    sync_topic: user.syncTopic,
    ...(user.prefs.language && { language: user.prefs.language }),
    ...(user.prefs.notification && { notification: user.prefs.notification }),
    ...(user.prefs.subscriptions?.length && { subscriptions: user.prefs.subscriptions }),
    ...(ctx.config.enableReservations && reservations.length > 0 && {
      reservations: reservations.map((r) => ({ topic: r.topic, everyone: permissionName(r.everyone) })),
    }),
    ...(tokens.length > 0 && { tokens: tokens.map(tokenJson) }),
    ...(phoneNumbers.length > 0 && { phone_numbers: phoneNumbers }),
    ...(emails.length > 0 && { emails: emailsJson(emails) }),
    ...(user.tier && { tier: { code: user.tier.code, name: user.tier.name } }),
    limits,
    stats,
  });
}

/** DELETE /v1/account: confirmed with the password; the user's reservations go with it. */
export async function deleteAccount(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const user = await requireUser(ctx, req);
  const password = text(await body, 'password');
  if (password === '') throw errors.badRequest;
  await confirm(ctx, user, password);
  await unlessProvisioned(accounts(ctx).store.removeUser(user.name));
  await ctx.webPush?.store.removeByUser(user.name);
  await ctx.monitors?.store.removeByUser(user.name);
  await syncAccount(ctx, user);
  ex.json(success);
}

/** POST /v1/account/password: `password` (the current one) and `new_password`. */
export async function changePassword(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const user = await requireUser(ctx, req);
  const fields = await body;
  const password = text(fields, 'password');
  const newPassword = text(fields, 'new_password');
  if (password === '' || newPassword === '') throw errors.badRequest;
  await confirm(ctx, user, password);
  await unlessProvisioned(accounts(ctx).store.changePassword(user.name, await bcrypt.hash(newPassword, bcryptCost)));
  ex.json(success);
}

/**
 * POST /v1/account/token: log in — a new token, by default for login-token-duration (72 h). With `scopes`
 * (Tocsin's own, model/token-scope.ts) the token may do only what they allow.
 */
export async function createToken(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex, true);
  const user = await requireUser(ctx, req);
  const fields = await body;
  const scopes = fields.scopes === undefined || fields.scopes === null ? undefined : parseScopes(fields.scopes);
  const token = await addToken(ctx, req, user, optional(fields, 'label', 'string') ?? '', optional(fields, 'expires', 'number'), scopes);
  ex.json(tokenJson(token));
}

/**
 * POST /v1/account/login (ntfy 2.27): Basic auth whose user name may also be the account's
 * verified primary e-mail address; a new token for login-token-duration and the account's own name.
 * Wrong credentials are 40101 and count against the address's failed logins, as anywhere.
 */
export async function logIn(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const given = credentials(req);
  if (given.kind !== 'password') throw errors.unauthorized;
  const user = await accounts(ctx).authenticate(given, clientAddressOf(ctx, req), true);
  if (!user) throw errors.unauthorized;
  req.seen.user = user.name;
  const token = await addToken(ctx, req, user, '', undefined);
  ex.json({ token: token.token, username: user.name });
}

/** A new token of the user's, by default for login-token-duration (a login's, and a single sign-on's). */
export async function addToken(ctx: ServerContext, req: RequestInfo, user: User, label: string, expires: number | undefined, scopes?: TokenScope[]): Promise<Token> {
  const token: Token = {
    token: newToken(),
    label,
    expires: expires ?? loginTokenExpiry(ctx),
    lastAccess: nowSeconds(),
    lastOrigin: clientAddressOf(ctx, req),
    ...(scopes && { scopes }),
  };
  await accounts(ctx).store.addToken(user.name, token);
  await syncAccount(ctx, user);
  return token;
}

/** PATCH /v1/account/token: change a token's label or expiry; with neither, extend it by login-token-duration. */
export async function updateToken(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex, true);
  const user = await requireUser(ctx, req);
  const fields = await body;
  const value = text(fields, 'token') || user.token;
  if (!value) throw errors.noTokenProvided;
  const label = optional(fields, 'label', 'string');
  const expires = optional(fields, 'expires', 'number') ?? (label === undefined ? loginTokenExpiry(ctx) : undefined);
  const token = await unlessProvisioned(accounts(ctx).store.changeToken(user.name, value, { label, expires }));
  if (!token) throw errors.notFound;
  await syncAccount(ctx, user);
  ex.json(tokenJson(token));
}

/** DELETE /v1/account/token: the `X-Token` header's token, or the one the request came with (log out). */
export async function deleteToken(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const user = await requireUser(ctx, req);
  const value = param(req, 'token') || user.token;
  if (!value) throw errors.noTokenProvided;
  if (!(await unlessProvisioned(accounts(ctx).store.removeToken(user.name, value)))) throw errors.notFound;
  await syncAccount(ctx, user);
  ex.json(success);
}

/** PATCH /v1/account/settings: language and notification settings; what is not given stays. */
export async function changeSettings(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const user = await requireUser(ctx, req);
  const fields = await body;
  const prefs: Prefs = { ...user.prefs };
  const language = optional(fields, 'language', 'string');
  if (language !== undefined) prefs.language = language;
  const notification = fields.notification;
  if (notification !== undefined && notification !== null) {
    if (typeof notification !== 'object' || Array.isArray(notification)) throw errors.jsonInvalid;
    const n = notification as Record<string, unknown>;
    prefs.notification = {
      ...prefs.notification,
      ...defined({ sound: optional(n, 'sound', 'string'), min_priority: optional(n, 'min_priority', 'number'), delete_after: optional(n, 'delete_after', 'number') }),
    };
  }
  await changePrefs(ctx, user, prefs);
  ex.json(success);
}

/** POST /v1/account/subscription: remember a subscription of the web app (40903 if it is there). */
export async function addSubscription(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const user = await requireUser(ctx, req);
  const subscription = subscriptionOf(await body);
  const subscriptions = user.prefs.subscriptions ?? [];
  if (subscriptions.some((s) => same(s, subscription))) throw errors.subscriptionExists;
  await changePrefs(ctx, user, { ...user.prefs, subscriptions: [...subscriptions, subscription] });
  ex.json(subscription);
}

/** PATCH /v1/account/subscription: rename a remembered subscription (404 if there is none). */
export async function changeSubscription(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  const user = await requireUser(ctx, req);
  const changed = subscriptionOf(await body);
  const subscriptions = user.prefs.subscriptions ?? [];
  if (!subscriptions.some((s) => same(s, changed))) throw errors.notFound;
  await changePrefs(ctx, user, { ...user.prefs, subscriptions: subscriptions.map((s) => (same(s, changed) ? changed : s)) });
  ex.json(changed);
}

/** DELETE /v1/account/subscription: `X-BaseURL` and `X-Topic` name it (DELETE has no body). */
export async function deleteSubscription(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const user = await requireUser(ctx, req);
  const gone: AccountSubscription = { base_url: param(req, 'baseUrl'), topic: param(req, 'topic'), display_name: null };
  const subscriptions = user.prefs.subscriptions ?? [];
  const kept = subscriptions.filter((s) => !same(s, gone));
  if (kept.length < subscriptions.length) await changePrefs(ctx, user, { ...user.prefs, subscriptions: kept });
  ex.json(success);
}

/**
 * POST /v1/account/reservation (with enable-reservations): `topic` becomes the user's,
 * `everyone` says what others may do. Users need a tier with reservations left; admins
 * may always, unless someone else's entry covers the topic (40902).
 */
export async function addReservation(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const body = readJson(ex);
  if (!ctx.config.enableReservations) throw errors.notFound;
  const user = await requireUser(ctx, req);
  const fields = await body;
  const topic = text(fields, 'topic');
  if (!namePattern.test(topic)) throw errors.topicInvalid;
  const everyone = parsePermission(text(fields, 'everyone'));
  if (!everyone) throw errors.permissionInvalid;
  const store = accounts(ctx).store;
  if (user.role === 'user' && !user.tier) throw errors.unauthorized;
  if (await store.othersHaveAccess(user.name, topic)) throw errors.topicReserved;
  if (user.role === 'user' && user.tier) {
    const reservations = await store.reservations(user.name);
    if (!reservations.some((r) => r.topic === topic) && reservations.length >= user.tier.reservationLimit) throw errors.tooManyReservations;
  }
  await store.addReservation(user.name, topic, everyone);
  await syncAccount(ctx, user);
  ex.json(success);
}

/** DELETE /v1/account/reservation/{topic}: only the owner may (40101 otherwise). */
export async function deleteReservation(ctx: ServerContext, ex: Exchange, req: RequestInfo, [topic]: string[]): Promise<void> {
  const user = await requireUser(ctx, req);
  const store = accounts(ctx).store;
  if ((await store.reservationOwner(topic as string)) !== user.name) throw errors.unauthorized;
  await store.removeReservations(user.name, [topic as string]);
  await syncAccount(ctx, user);
  ex.json(success);
}

async function confirm(ctx: ServerContext, user: User, password: string): Promise<void> {
  if (!(await accounts(ctx).confirmPassword(user, password))) throw errors.incorrectPasswordConfirmation;
}

async function changePrefs(ctx: ServerContext, user: User, prefs: Prefs): Promise<void> {
  await accounts(ctx).store.changePrefs(user.name, prefs);
  await syncAccount(ctx, user);
}

function subscriptionOf(fields: Record<string, unknown>): AccountSubscription {
  return { base_url: text(fields, 'base_url'), topic: text(fields, 'topic'), display_name: optional(fields, 'display_name', 'string') ?? null };
}

function same(a: AccountSubscription, b: AccountSubscription): boolean {
  return a.base_url === b.base_url && a.topic === b.topic;
}

function defined<T extends object>(o: T): Partial<T> {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** ntfy's apiAccountTokenResponse: empty and zero fields are left out; `scopes` is Tocsin's own. */
export function tokenJson(t: Token): Record<string, unknown> {
  return {
    token: t.token,
    ...(t.label && { label: t.label }),
    ...(t.lastAccess && { last_access: t.lastAccess }),
    ...(t.lastOrigin && { last_origin: t.lastOrigin }),
    ...(t.expires && { expires: t.expires }),
    ...(t.scopes && { scopes: scopesJson(t.scopes) }),
  };
}
