import { createHash } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { errors } from '../model/errors.js';
import { everyone, type Permission, type User } from '../model/access.js';
import { AccessTable } from './access-table.js';
import type { RateLimit } from '../config/schema.js';
import { LruMap } from '../model/lru-map.js';
import { scopesAllow } from '../model/token-scope.js';
import { TokenBuckets } from '../model/token-buckets.js';
import type { AuthStore } from '../store/auth-store.js';
import type { ProxyAuthConfig } from '../config/schema.js';
import { ProxyUsers, type ProxyIdentity } from './proxy-users.js';

/** What a request presents: nothing, a user name and password, or an access token. */
export type Credentials =
  | { kind: 'anonymous' }
  | { kind: 'password'; username: string; password: string }
  | { kind: 'token'; token: string }
  /** Named by a trusted reverse proxy (auth-user-header), read only from proxy-trusted-hosts. */
  | ({ kind: 'proxy' } & ProxyIdentity);

/** Verified passwords remembered, least recently used forgotten first (only real credentials get here). */
const verifiedLimit = 10_000;
/** Tokens whose last write is remembered; a forgotten one is written again at its next use, no sooner. */
const touchedLimit = 10_000;
/** A token's last use is written at most this often (it is shown by `token list`). */
const touchEveryMs = 60_000;
/** Password-reset mails one account may get: 3 at once, then one an hour. */
export const resetMailLimit: RateLimit = { burst: 3, replenishMs: 3_600_000 };
/** Compared against for unknown users, so a wrong name takes as long as a wrong password (as ntfy). */
const slowDownHash = bcrypt.hashSync('intentional slow-down to avoid timing attacks', 10);

/**
 * Access control with an auth-file (ntfy's user.Manager): who a request is, and whether
 * they may read or write a topic. Without an auth-file there is no instance of this and
 * every topic is open, as in ntfy.
 *
 * It remembers no decision: every request reads the user (or the token's owner) and the
 * topic's entry from the store (or, with auth-access-cache, the store's table of every
 * entry, remembered by the store under the same rule as its other reads), and a remembered password check holds only for the stored
 * hash it was made against. So a change made on another node or by the CLI (a password,
 * a role, a token or grant removed, a user deleted) is honoured no longer than the
 * store's own staleReadBoundMs; a request already past its check when the change lands
 * goes on (a subscription stays open, as in ntfy).
 */
export class AccessControl {
  /**
   * bcrypt costs ~60 ms by design, far too much per publish. A successful check is
   * remembered under a digest of (stored hash, password): a changed password has a new
   * hash and a deleted user has none, so neither can be served from memory.
   */
  private readonly verified = new LruMap<string, true>(verifiedLimit);
  /** bcrypt checks under way: as many as requests waiting on one, each an open connection. */
  private readonly checking = new Map<string, Promise<boolean>>();
  /** Token → when its last use was written (ms); only tokens that exist get here. */
  private readonly touched = new LruMap<string, number>(touchedLimit);

  /** Failed logins per address (ntfy's visitor auth limiter): guessing passwords is slow. */
  private readonly failures: TokenBuckets;

  /**
   * Account actions per address (ntfy 2.25's account-action limiter): sign-ups and
   * password-reset requests share it, so a stranger can neither mass-create accounts nor
   * mail-bomb an address through reset links.
   */
  readonly accountActions: TokenBuckets;

  /**
   * Reset links mailed per account (Tocsin's own; ntfy has only the per-address limit):
   * requests from many addresses cannot flood one mailbox either.
   */
  readonly resetMails = new TokenBuckets(resetMailLimit);

  /** auth-access-cache: topic access from a table of every entry rather than a store read per (user, topic). */
  private readonly table: AccessTable | undefined;

  /** auth-user-header: the users a trusted proxy names. */
  private readonly proxy: ProxyUsers | undefined;

  constructor(
    readonly store: AuthStore,
    private readonly defaultAccess: Permission,
    limits: { authFailures: RateLimit; accountActions: RateLimit; keyOf?: (address: string) => string },
    accessCache = false,
    proxy?: ProxyAuthConfig,
  ) {
    this.failures = new TokenBuckets(limits.authFailures, { keyOf: limits.keyOf });
    this.accountActions = new TokenBuckets(limits.accountActions, { keyOf: limits.keyOf });
    this.table = accessCache ? new AccessTable(store) : undefined;
    this.proxy = proxy && new ProxyUsers(store, proxy, this.accountActions);
  }

  /** Housekeeping: drops failed-login and account-action buckets that have filled up again. */
  forget(): void {
    this.failures.forget();
    this.accountActions.forget();
    this.resetMails.forget();
  }

  /**
   * The user behind `credentials`; undefined for anonymous; 40101 when they do not check
   * out, 42909 once `origin` has failed too often. With `byEmail` (POST /v1/account/login,
   * ntfy 2.27) the user name may also be a verified primary e-mail address.
   */
  async authenticate(credentials: Credentials, origin: string, byEmail = false): Promise<User | undefined> {
    if (credentials.kind === 'anonymous') return undefined;
    // The proxy has checked who this is: no password is guessed here, so no failure is counted.
    if (credentials.kind === 'proxy') {
      if (!this.proxy) throw errors.unauthorized;
      return this.proxy.user(credentials, origin);
    }
    if (!this.failures.allows(origin)) throw errors.tooManyAuthFailures;
    try {
      return await this.check(credentials, origin, byEmail);
    } catch (err) {
      if (err === errors.unauthorized) this.failures.take(origin);
      throw err;
    }
  }

  /** Whether `password` is the user's; for confirmations (account deletion, password change). */
  async confirmPassword(user: User, password: string): Promise<boolean> {
    return this.passwordMatches(user.hash, password);
  }

  private async check(credentials: Extract<Credentials, { kind: 'password' | 'token' }>, origin: string, byEmail: boolean): Promise<User> {
    if (credentials.kind === 'token') {
      const user = await this.store.userByToken(credentials.token);
      if (!user) throw errors.unauthorized;
      await this.touch(credentials.token, origin);
      return { ...user, token: credentials.token };
    }
    const users = await this.named(credentials.username, byEmail);
    if (users.length === 0) await bcrypt.compare(credentials.password, slowDownHash);
    for (const user of users) if (await this.passwordMatches(user.hash, credentials.password)) return user;
    throw errors.unauthorized;
  }

  /**
   * The users `name` may log in as: with `byEmail` the owner of that verified primary
   * address, then the user of that name. Both are tried, so that neither a user named like
   * someone's address nor an address like someone's name locks the other out.
   */
  private async named(name: string, byEmail: boolean): Promise<User[]> {
    const [owner, named] = await Promise.all([byEmail ? this.store.userByPrimaryEmail(name) : undefined, this.store.user(name)]);
    if (!owner) return named ? [named] : [];
    return named && named.name !== owner.name ? [owner, named] : [owner];
  }

  /**
   * 40301 unless `user` (undefined: anonymous) may `want` every one of `topics`. A
   * topic-scoped token must allow it too, whoever its user, admins and the sync topic included.
   */
  async authorize(user: User | undefined, topics: readonly string[], want: keyof Permission): Promise<void> {
    const scopes = user?.scopes;
    if (scopes && !topics.every((topic) => scopesAllow(scopes, topic, want))) throw errors.forbidden;
    if (user?.role === 'admin') return;
    for (const topic of topics) {
      // The account's sync topic is its own to read, whatever the default (ntfy's web app
      // fails to listen there on deny-all servers).
      if (want === 'read' && topic === user?.syncTopic) continue;
      const name = user?.name ?? everyone;
      const permission = (await (this.table ? this.table.permission(name, topic) : this.store.permission(name, topic))) ?? this.defaultAccess;
      if (!permission[want]) throw errors.forbidden;
    }
  }

  private async passwordMatches(hash: string, password: string): Promise<boolean> {
    const key = createHash('sha256').update(hash).update('\0').update(password).digest('base64');
    if (this.verified.get(key)) return true;
    // Requests with the same credentials that arrive while the first is being checked
    // (a client opening 64 connections) share its bcrypt rather than run 64.
    let check = this.checking.get(key);
    if (!check) {
      check = bcrypt.compare(password, hash).finally(() => this.checking.delete(key));
      this.checking.set(key, check);
    }
    if (!(await check)) return false;
    this.verified.set(key, true);
    return true;
  }


  private async touch(token: string, origin: string): Promise<void> {
    const now = Date.now();
    if (now - (this.touched.get(token) ?? 0) < touchEveryMs) return;
    this.touched.set(token, now);
    await this.store.touchToken(token, Math.floor(now / 1000), origin);
  }
}
