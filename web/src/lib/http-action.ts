import type { Action } from './message.js';
import { t } from './i18n.js';

/**
 * An http action as ntfy's web app performs it: the request from the browser, POST unless
 * said. Throws the failure in words: the status, or (fetch tells no more) that the request
 * did not get through, as when the server is down or its CORS headers refuse this page.
 */
export async function performHttpAction(action: Action): Promise<void> {
  let res: Response;
  try {
    res = await fetch(action.url ?? '', { method: action.method ?? 'POST', headers: action.headers ?? {}, body: action.body ?? null });
  } catch {
    throw new Error(t('action.unreachable', { label: action.label }));
  }
  if (!res.ok) throw new Error(t('action.failed', { label: action.label, status: `${res.status} ${res.statusText}`.trim() }));
}
