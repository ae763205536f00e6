import { api, ApiError, basicAuth } from './api.js';
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

export async function refreshAccount(): Promise<void> {
  if (!session.value) return account.set(undefined);
  let current: Account;
  try {
    current = await api<Account>('GET', '/v1/account');
  } catch (err) {
    // The token expired or was deleted elsewhere: the session is over.
    if (err instanceof ApiError && err.status === 401) session.set(null);
    throw err;
  }
  account.set(current);
  adoptAccountSubscriptions(current.subscriptions);
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

export async function logOut(): Promise<void> {
  try {
    await api('DELETE', '/v1/account/token');
  } finally {
    session.set(null);
    account.set(undefined);
  }
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
