import { api, ApiError } from './api.js';
import { session } from './session.js';

/** ntfy's web app extends its token every 15 minutes; no renewal waits longer. */
const longestWaitMs = 15 * 60_000;
/** A token with no time left (a laptop woken after days) is tried at once, but never in a tight loop. */
const shortestWaitMs = 1_000;

let timer: ReturnType<typeof setTimeout> | undefined;

/**
 * Keeps the login alive as long as the app is open (issue 40: users were logged out after
 * 72 hours, and an open tab lost its protected topics at the next reconnect): the token is
 * extended (PATCH /v1/account/token, as ntfy's app) when half its remaining life has passed,
 * so a short login-token-duration is renewed in time too, and again whenever the page shows
 * after being hidden (timers sleep with the machine). A token the server no longer knows
 * ends the session, which clears what it could read. Call once at start.
 */
export function keepSessionAlive(): void {
  session.subscribe(schedule);
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'visible') schedule();
  });
  schedule();
}

function schedule(): void {
  clearTimeout(timer);
  const current = session.value;
  if (!current || current.proxied) return;
  const leftMs = current.expires === undefined ? 2 * longestWaitMs : current.expires * 1000 - Date.now();
  timer = setTimeout(() => void renew(), Math.min(Math.max(leftMs / 2, shortestWaitMs), longestWaitMs));
}

async function renew(): Promise<void> {
  const renewed = session.value;
  if (!renewed) return;
  try {
    const { expires } = await api<{ expires?: number }>('PATCH', '/v1/account/token');
    // Another tab may have logged out or in meanwhile: only this token's session moves on.
    if (session.value?.token === renewed.token) session.set({ ...renewed, ...(expires !== undefined && { expires }) });
    else schedule();
  } catch (err) {
    if (err instanceof ApiError && err.status === 401 && session.value?.token === renewed.token) session.set(null);
    else schedule(); // offline or a server error: try again later, before the token runs out
  }
}
