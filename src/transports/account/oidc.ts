import { randomBytes } from 'node:crypto';
import { ProviderUnavailable, SignOnRefused, type Claims, type OidcSignOn } from '../../auth/oidc.js';
import type { OidcConfig } from '../../config/schema.js';
import { groupNamePattern, usernamePattern, type Role, type User } from '../../model/access.js';
import { errors, HttpError } from '../../model/errors.js';
import { addVouchedUser } from '../../auth/vouched-users.js';
import type { ServerContext } from '../context.js';
import { Gate, runGuards } from '../guards/guard.js';
import { requestRate } from '../guards/request-rate.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import { isBrowser } from '../web/pages.js';
import { addToken } from './account.js';
import { accounts } from './session.js';
import { pathPrefix } from './web-config.js';

/**
 * Single sign-on (issue 38): GET /v1/auth/oidc/login sends the browser to the provider,
 * GET /v1/auth/oidc/callback brings it back as a Tocsin user with a session token, which a
 * small page hands to the web app where it keeps its session. Failures answer ntfy's JSON,
 * or, to a browser, a page saying what went wrong.
 */

/** The web app's session in localStorage (web/src/lib/session.ts and saved.ts). */
const sessionKey = 'tocsin.session';

/** Groups taken from one ID token at most: the claim is the provider's, but its length is not ours to trust. */
const maxGroups = 1000;

/** GET /v1/auth/oidc/login: 302 to the provider's authorization endpoint. */
export async function startSignOn(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const oidc = signOnOf(ctx);
  try {
    await oneRequest(ctx, req);
    const url = await oidc.start();
    ex.send(302, '', 'text/plain', [['Location', url.href], ['Cache-Control', 'no-store']]);
  } catch (err) {
    fail(ctx, ex, req, err);
  }
}

/** GET /v1/auth/oidc/callback: the provider's answer, verified; the user made or brought up to date; a session for them. */
export async function finishSignOn(ctx: ServerContext, ex: Exchange, req: RequestInfo): Promise<void> {
  const oidc = signOnOf(ctx);
  try {
    await oneRequest(ctx, req);
    const url = new URL(oidc.redirectUri);
    for (const [key, value] of req.query) url.searchParams.set(key, value);
    const user = await signedOnUser(ctx, ctx.config.oidc as OidcConfig, await oidc.finish(url));
    req.seen.user = user.name;
    ctx.log.info({ user_name: user.name, role: user.role }, 'oidc: signed on');
    const token = await addToken(ctx, req, user, 'Single sign-on', undefined);
    const session = { username: user.name, token: token.token, expires: token.expires };
    sessionPage(ex, pathPrefix(ctx.config.baseUrl).app_root, session);
  } catch (err) {
    fail(ctx, ex, req, err);
  }
}

/** One request from the visitor's bucket (42901): each login holds state here and reaches the provider. */
async function oneRequest(ctx: ServerContext, req: RequestInfo): Promise<void> {
  await runGuards([requestRate('own')], new Gate(ctx, req, []));
}

function signOnOf(ctx: ServerContext): OidcSignOn {
  if (!ctx.oidc) throw errors.notFound;
  return ctx.oidc;
}

/**
 * The user the claims name: made at the first sign-on (with a random password: they sign on
 * through the provider), their memberships of existing groups made those of the groups claim
 * and, with auth-oidc-admin-groups, their role that of the claim. A user server.yml provisions
 * is refused (40905): its role and groups are server.yml's alone.
 */
async function signedOnUser(ctx: ServerContext, config: OidcConfig, claims: Claims): Promise<User> {
  const name = claims[config.usernameClaim];
  if (typeof name !== 'string' || !usernamePattern.test(name)) throw errors.usernameInvalid.wrap(`claim ${config.usernameClaim} is not a user name`);
  const groups = groupsOf(claims[config.groupsClaim]);
  const store = accounts(ctx).store;
  const existing = await store.user(name);
  if (existing?.provisioned) throw errors.provisionedUserChange;
  const role: Role | undefined = config.adminGroups.length === 0 ? undefined : groups.some((g) => config.adminGroups.includes(g)) ? 'admin' : 'user';
  // The username claim need not be unique or fixed (a provider may let people pick it):
  // without auth-oidc-admin-groups the provider says nothing of who is admin, so it never
  // opens an admin made here, who would otherwise be anyone able to claim the name.
  if (existing?.role === 'admin' && role === undefined) throw errors.signOnRefused.wrap('an admin made with the CLI signs on with a password; set auth-oidc-admin-groups to let single sign-on decide who is admin');
  if (!existing) {
    await addVouchedUser(store, name, role ?? 'user');
  } else if (role && existing.role !== role) {
    await store.changeRole(name, role);
  }
  await store.syncMemberships(name, groups);
  const user = await store.user(name);
  if (!user) throw errors.userNotFound; // removed meanwhile
  return user;
}

/** The groups claim's names that could be Tocsin groups; anything else in it is ignored. */
function groupsOf(claim: unknown): string[] {
  if (!Array.isArray(claim)) return [];
  return claim.filter((g): g is string => typeof g === 'string' && groupNamePattern.test(g)).slice(0, maxGroups);
}

/**
 * The page that stores the session where the web app reads it and opens the app. Its one
 * script runs by a nonce; the JSON is escaped so nothing in it can end the script.
 */
function sessionPage(ex: Exchange, root: string, session: { username: string; token: string; expires: number }): void {
  const nonce = randomBytes(16).toString('base64');
  const literal = (value: unknown): string => JSON.stringify(value).replaceAll('<', '\\u003c');
  const script = `localStorage.setItem(${literal(sessionKey)}, ${literal(JSON.stringify(session))});location.replace(${literal(root)});`;
  const body = `<!doctype html>\n<html lang="en"><meta charset="utf-8"><title>Signed in</title><script nonce="${nonce}">${script}</script><p>Signed in. <a href="${encodeURI(root)}">Open the app</a>.</p></html>\n`;
  ex.send(200, body, 'text/html; charset=utf-8', pageHeaders(`script-src 'nonce-${nonce}'`));
}

/** A failed sign-on: ntfy's JSON error, or to a browser the same words on a page. */
function fail(ctx: ServerContext, ex: Exchange, req: RequestInfo, err: unknown): void {
  // An unreachable provider is the operator's to fix; a refused sign-on is the visitor's, told in the answer.
  if (err instanceof ProviderUnavailable) ctx.log.warn({ err: err.message }, 'oidc: the identity provider cannot be reached');
  const e = err instanceof SignOnRefused ? errors.signOnRefused.wrap(err.message) : err instanceof ProviderUnavailable ? errors.identityProviderUnavailable : err;
  if (!(e instanceof HttpError) || !isBrowser(req)) throw e;
  const text = e.error.replaceAll('&', '&amp;').replaceAll('<', '&lt;').replaceAll('>', '&gt;');
  const body = `<!doctype html>\n<html lang="en"><meta charset="utf-8"><title>Sign-on failed</title><h1>Sign-on failed</h1><p>${text} (${e.code})</p><p><a href="./login">Try again</a></p></html>\n`;
  ex.send(e.http, body, 'text/html; charset=utf-8', pageHeaders("script-src 'none'"));
}

/** No caching (the page holds a token), no referrer (the URL holds the code), nothing loaded but the nonce'd script. */
function pageHeaders(scripts: string): [string, string][] {
  return [
    ['Cache-Control', 'no-store'],
    ['Referrer-Policy', 'no-referrer'],
    ['Content-Security-Policy', `default-src 'none'; ${scripts}; base-uri 'none'; frame-ancestors 'none'`],
  ];
}
