import { apiBase } from './config.js';
import { authHeaders } from './session.js';

/** An error the server answered, with ntfy's numeric code (e.g. 40101, 40902). */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly code: number,
    message: string,
  ) {
    super(message);
  }
}

/**
 * A JSON call to the server's API with the session's credentials; `credentials` replaces
 * them (logging in with a password). Answers the parsed body, or throws its ApiError.
 */
export async function api<T = unknown>(method: string, path: string, options: { body?: unknown; headers?: Record<string, string> } = {}): Promise<T> {
  const res = await fetch(`${apiBase}${path}`, {
    method,
    headers: { ...authHeaders(), ...options.headers },
    ...(options.body !== undefined && { body: JSON.stringify(options.body) }),
  });
  const text = await res.text();
  const json = text ? (JSON.parse(text) as Record<string, unknown>) : {};
  if (!res.ok) throw new ApiError(res.status, Number(json.code ?? res.status), String(json.error ?? res.statusText));
  return json as T;
}

export const basicAuth = (username: string, password: string): Record<string, string> => ({
  Authorization: `Basic ${btoa(String.fromCharCode(...new TextEncoder().encode(`${username}:${password}`)))}`,
});
