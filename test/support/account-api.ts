import type { Json } from './clients.js';

/** A Basic Authorization header's value. */
export const basic = (user: string, password = 'secret'): string => `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;

/** One request to the account API of the server at `base`: its status and JSON answer. */
export async function apiCall(base: string, method: string, path: string, authorization?: string, body?: unknown, headers: Record<string, string> = {}): Promise<[number, Json]> {
  const res = await fetch(`${base}${path}`, {
    method,
    headers: { ...headers, ...(authorization && { Authorization: authorization }) },
    ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
  });
  return [res.status, (await res.json()) as Json];
}

/** The status and, for an error, its ntfy code; for a success, the answer. */
export async function statusAndCode(p: Promise<[number, Json]>): Promise<[number, unknown]> {
  const [status, json] = await p;
  return [status, status === 200 ? json : json.code];
}
