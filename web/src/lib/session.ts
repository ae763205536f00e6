import { savedStore } from './saved.js';

/** Who is logged in: the user name and the token POST /v1/account/token gave (ntfy's web app keeps the same). */
export interface Session {
  username: string;
  /** '' for a user a trusted proxy logged in (auth-user-header): the proxy's header is the credential, on every request. */
  token: string;
  /** Logged in by the proxy, not here: no token to renew or delete. */
  proxied?: boolean;
  /** When the token runs out (Unix seconds), as the server last said; renewal moves it on (session-renewal.ts). */
  expires?: number;
}

export const session = savedStore<Session | null>('session', null);

/** The Authorization header of the session, if any. */
export function authHeaders(): Record<string, string> {
  return session.value?.token ? { Authorization: `Bearer ${session.value.token}` } : {};
}

/** The same credentials as the `auth` query parameter (unpadded base64url): WebSockets cannot send headers. */
export function authParam(): string | undefined {
  if (!session.value?.token) return undefined;
  return btoa(`Bearer ${session.value.token}`).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}
