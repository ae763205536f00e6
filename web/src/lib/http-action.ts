import type { Action } from './message.js';

/** An http action as ntfy's web app performs it: the request from the browser, POST unless said. */
export async function performHttpAction(action: Action): Promise<void> {
  const res = await fetch(action.url ?? '', { method: action.method ?? 'POST', headers: action.headers ?? {}, body: action.body ?? null });
  if (!res.ok) throw new Error(`${action.label}: HTTP ${res.status}`);
}
