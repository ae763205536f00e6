import { api, ApiError, basicAuth } from './api.js';
import { serverConfig } from './config.js';
import { session } from './session.js';
import { adoptAccountSubscriptions } from './subscriptions.js';
import { Store } from './store.js';

/** GET /v1/account's answer, as far as the app shows it. */
export interface Account {
  username: string;
  role: string;
  tier?: { code: string; name: string };
  subscriptions?: { base_url: string; topic: string; display_name?: string | null }[];
  reservations?: { topic: string; everyone: string }[];
  tokens?: { token: string; label?: string; expires?: number; last_access?: number; last_origin?: string; scopes?: TokenScope[] }[];
  emails?: { address: string; primary?: boolean; pending?: boolean }[];
  limits?: { reservations?: number; messages?: number; attachment_file_size?: number };
  stats?: { messages?: number; reservations?: number };
}

/** The logged-in user's account, refreshed after each change; undefined when logged out. */
export const account = new Store<Account | undefined>(undefined);

/**
 * Asks the server who this is. Without a token it asks too: behind a proxy that logs people
 * in (auth-user-header) the server answers the user the proxy names, who is then logged in
 * here without a login page; when it answers anonymous (`*`), nobody is.
 */
export async function refreshAccount(): Promise<void> {
  const token = session.value?.token;
  let current: Account;
  try {
    current = await api<Account>('GET', '/v1/account');
  } catch (err) {
    // The token expired or was deleted elsewhere, or the proxy names someone refused: the session is over.
    if (err instanceof ApiError && err.status === 401) session.set(null);
    if (!token) return account.set(undefined); // no account API (no auth-file) or offline: as anonymous
    throw err;
  }
  if (!token) proxied(current.username);
  if (!session.value) return account.set(undefined);
  account.set(current);
  adoptAccountSubscriptions(current.subscriptions);
}

/** The session of the user a proxy vouches for, changed only when they change (a new value reconnects the streams). */
function proxied(username: string): void {
  const now = session.value;
  if (username === '*') {
    if (now) session.set(null);
  } else if (now?.username !== username) {
    session.set({ username, token: '', proxied: true });
  }
}

/** Logs in as ntfy's web app does: the password buys a token, which the app keeps instead. */
export async function logIn(username: string, password: string): Promise<void> {
  const { token, expires } = await api<{ token: string; expires?: number }>('POST', '/v1/account/token', { headers: basicAuth(username, password), body: { label: 'Tocsin web app' } });
  session.set({ username, token, ...(expires !== undefined && { expires }) });
  await refreshAccount();
}

export async function signUp(username: string, password: string): Promise<void> {
  await api('POST', '/v1/account', { body: { username, password } });
  await logIn(username, password);
}

/** Ends the session; with auth-logout-url set the page goes there, to end the proxy's login too. */
export async function logOut(): Promise<void> {
  try {
    if (session.value?.token) await api('DELETE', '/v1/account/token');
  } finally {
    session.set(null);
    account.set(undefined);
  }
  if (serverConfig.auth_logout_url) window.location.assign(serverConfig.auth_logout_url);
}

/** What a topic-scoped token may do on one topic or pattern (Tocsin's own; the server checks the words). */
export interface TokenScope {
  topic: string;
  permission: string;
}

/** `deploys:wo, logs-*:ro` as scopes; undefined when blank (a token with all its user's rights). */
export function scopesOf(text: string): TokenScope[] | undefined {
  const parts = text.split(',').map((p) => p.trim()).filter((p) => p !== '');
  if (parts.length === 0) return undefined;
  return parts.map((p) => {
    const colon = p.lastIndexOf(':');
    return colon < 0 ? { topic: p, permission: '' } : { topic: p.slice(0, colon).trim(), permission: p.slice(colon + 1).trim() };
  });
}
