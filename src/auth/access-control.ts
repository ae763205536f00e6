import { createHash } from 'node:crypto';
import bcrypt from 'bcryptjs';
import { errors } from '../model/errors.js';
import type { Permission, User } from '../model/access.js';
import type { RateLimit } from '../config/schema.js';
import { TokenBuckets } from '../model/token-buckets.js';
import type { AuthStore } from '../store/auth-store.js';

/** What a request presents: nothing, a user name and password, or an access token. */
export type Credentials = { kind: 'anonymous' } | { kind: 'password'; username: string; password: string } | { kind: 'token'; token: string };

/** How many verified passwords are remembered before the memory starts over. */
const verifiedLimit = 10_000;
/** A token's last use is written at most this often (it is shown by `token list`). */
const touchEveryMs = 60_000;
/** Compared against for unknown users, so a wrong name takes as long as a wrong password (as ntfy). */
const slowDownHash = bcrypt.hashSync('intentional slow-down to avoid timing attacks', 10);

/**
 * Access control with an auth-file (ntfy's user.Manager): who a request is, and whether
 * they may read or write a topic. Without an auth-file there is no instance of this and
 * every topic is open, as in ntfy.
 */
export class AccessControl {
  /**
   * bcrypt costs ~60 ms by design, far too much per publish. A successful check is
   * remembered under a digest of (stored hash, password): a changed password has a new
   * hash and a deleted user has none, so neither can be served from memory.
   */
  private readonly verified = new Set<string>();
  private readonly checking = new Map<string, Promise<boolean>>();
  private readonly touched = new Map<string, number>();

  /** Failed logins per address (ntfy's visitor auth limiter): guessing passwords is slow. */
  private readonly failures: TokenBuckets;

  /** Sign-ups per address (ntfy's account creation limiter), spent by the account API. */
  readonly signups: TokenBuckets;

  constructor(
    readonly store: AuthStore,
    private readonly defaultAccess: Permission,
    limits: { authFailures: RateLimit; signups: RateLimit },
  ) {
    this.failures = new TokenBuckets(limits.authFailures);
    this.signups = new TokenBuckets(limits.signups);
  }

  /**
   * The user behind `credentials`; undefined for anonymous; 40101 when they do not check
   * out, 42909 once `origin` has failed too often.
   */
  async authenticate(credentials: Credentials, origin: string): Promise<User | undefined> {
    if (credentials.kind === 'anonymous') return undefined;
    if (!this.failures.allows(origin)) throw errors.tooManyAuthFailures;
    try {
      return await this.check(credentials, origin);
    } catch (err) {
      if (err === errors.unauthorized) this.failures.take(origin);
      throw err;
    }
  }

  /** Whether `password` is the user's; for confirmations (account deletion, password change). */
  async confirmPassword(user: User, password: string): Promise<boolean> {
    return this.passwordMatches(user.hash, password);
  }

  private async check(credentials: Exclude<Credentials, { kind: 'anonymous' }>, origin: string): Promise<User> {
    if (credentials.kind === 'token') {
      const user = await this.store.userByToken(credentials.token);
      if (!user) throw errors.unauthorized;
      await this.touch(credentials.token, origin);
      return { ...user, token: credentials.token };
    }
    const user = await this.store.user(credentials.username);
    if (!user) {
      await bcrypt.compare(credentials.password, slowDownHash);
      throw errors.unauthorized;
    }
    if (!(await this.passwordMatches(user.hash, credentials.password))) throw errors.unauthorized;
    return user;
  }

  /** 40301 unless `user` (undefined: anonymous) may `want` every one of `topics`. */
  async authorize(user: User | undefined, topics: readonly string[], want: keyof Permission): Promise<void> {
    if (user?.role === 'admin') return;
    for (const topic of topics) {
      // The account's sync topic is its own to read, whatever the default (ntfy's web app
      // fails to listen there on deny-all servers).
      if (want === 'read' && topic === user?.syncTopic) continue;
      const permission = (await this.store.permission(user?.name ?? '*', topic)) ?? this.defaultAccess;
      if (!permission[want]) throw errors.forbidden;
    }
  }

  private async passwordMatches(hash: string, password: string): Promise<boolean> {
    const key = createHash('sha256').update(hash).update('\0').update(password).digest('base64');
    if (this.verified.has(key)) return true;
    // Requests with the same credentials that arrive while the first is being checked
    // (a client opening 64 connections) share its bcrypt rather than run 64.
    let check = this.checking.get(key);
    if (!check) {
      check = bcrypt.compare(password, hash).finally(() => this.checking.delete(key));
      this.checking.set(key, check);
    }
    if (!(await check)) return false;
    if (this.verified.size >= verifiedLimit) this.verified.clear();
    this.verified.add(key);
    return true;
  }


  private async touch(token: string, origin: string): Promise<void> {
    const now = Date.now();
    if (now - (this.touched.get(token) ?? 0) < touchEveryMs) return;
    if (this.touched.size >= verifiedLimit) this.touched.clear();
    this.touched.set(token, now);
    await this.store.touchToken(token, Math.floor(now / 1000), origin);
  }
}
