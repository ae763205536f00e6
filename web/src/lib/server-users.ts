import { basicAuth } from './api.js';
import { apiBase } from './config.js';
import { savedStore } from './saved.js';
import { topicUrlOf, type Located } from './servers.js';
import { authHeaders, authParam, session } from './session.js';

/**
 * The credentials the visitor gave for another server (ntfy's web app's "users"): a user name
 * and password (sent as Basic), or with no user name an access token (sent as Bearer). The
 * app's own server is not among them: its login is the session.
 */
export interface ServerUser {
  /** The server's base URL in parseBaseUrl's form: credentials go to this exact URL's server only. */
  baseUrl: string;
  username: string;
  secret: string;
}

/** Kept in this browser's storage, as ntfy's web app keeps them in IndexedDB. */
export const serverUsers = savedStore<ServerUser[]>('users', []);

/**
 * Logging out ends what was kept for the account, these too: ntfy's web app keeps them in the
 * logged-in user's own database and deletes that database at logout.
 */
let loggedIn = session.value !== null;
session.subscribe((value) => {
  if (loggedIn && !value) serverUsers.set([]);
  loggedIn = value !== null;
});

const userOf = (baseUrl: string): ServerUser | undefined => serverUsers.value.find((u) => u.baseUrl === baseUrl);

function authorization(user: ServerUser): string {
  return user.username ? (basicAuth(user.username, user.secret).Authorization as string) : `Bearer ${user.secret}`;
}

/**
 * The Authorization header for a request to the server at `baseUrl`: the session's for the
 * app's own, the stored credentials of exactly that base URL for another, none otherwise. A
 * server is only ever sent its own credentials (no prefix or host match, no redirect followed
 * with them: fetch drops Authorization on a redirect to another origin).
 */
export function authHeadersFor(baseUrl: string, user = userOf(baseUrl)): Record<string, string> {
  if (baseUrl === apiBase) return authHeaders();
  return user ? { Authorization: authorization(user) } : {};
}

/** The same as the `auth` query parameter (unpadded base64url), for WebSockets, which cannot send headers. */
export function authParamFor(baseUrl: string): string | undefined {
  if (baseUrl === apiBase) return authParam();
  const user = userOf(baseUrl);
  if (!user) return undefined;
  const bytes = new TextEncoder().encode(authorization(user));
  return btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** Saves (or replaces) the credentials of one server. */
export function saveServerUser(user: ServerUser): void {
  serverUsers.update((users) => [...users.filter((u) => u.baseUrl !== user.baseUrl), user]);
}

export function removeServerUser(baseUrl: string): void {
  serverUsers.update((users) => users.filter((u) => u.baseUrl !== baseUrl));
}

/** The credentials were refused for the topic (401/403). */
export class NotAuthorized extends Error {}

/**
 * Checks the credentials against the topic first (GET /{topic}/auth, as ntfy's subscribe
 * dialog does), so a mistyped password is said at once, then saves them for the server.
 */
export async function logInToServer(where: Required<Located>, username: string, secret: string): Promise<void> {
  const user: ServerUser = { baseUrl: where.baseUrl, username: username.trim(), secret };
  const res = await fetch(`${topicUrlOf(where)}/auth`, { headers: authHeadersFor(where.baseUrl, user) });
  if (res.status === 401 || res.status === 403) throw new NotAuthorized();
  if (!res.ok) throw new Error(`HTTP ${res.status}`);
  saveServerUser(user);
}
