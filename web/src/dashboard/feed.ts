import type { Frame } from '../../../src/dashboard/frame.js';
import { apiBase } from '../lib/config.js';
import { authHeaders, authParam } from '../lib/session.js';
import { Store } from '../lib/store.js';

export type { Frame };

/** Where the page stands with the feed: what the server answered (the probe's code) or that frames flow. */
export type FeedStatus = 'connecting' | 'live' | 'login' | 'forbidden' | 'off' | 'error';

export interface FeedState {
  status: FeedStatus;
  /** The latest frames, oldest first (the charts' window). */
  frames: Frame[];
}

/** Two minutes of frames at one a second. */
const windowSize = 120;
const retryMs = 2000;
const feedPath = '/v1/dashboard/ws';

export const feed = new Store<FeedState>({ status: 'connecting', frames: [] });

/** The probe's answer (a plain GET of the feed, src/dashboard/admission.ts): 40016 means the upgrade will be taken. */
const statusOfCode: Record<number, FeedStatus> = { 40016: 'live', 40101: 'login', 40301: 'forbidden', 40401: 'off' };

let socket: WebSocket | undefined;
let retry: ReturnType<typeof setTimeout> | undefined;

/**
 * Connects with the session's credentials (`?auth=`: a browser's WebSocket sends no
 * header), after asking the server whether it would be admitted; reconnects every two
 * seconds while it is not, or after the socket closed. Calling it again starts afresh
 * (after a login or logout).
 */
export function connectFeed(): void {
  clearTimeout(retry);
  socket?.close();
  socket = undefined;
  void probe().then((status) => {
    if (status !== 'live') {
      feed.set({ ...feed.value, status });
      if (status === 'connecting' || status === 'error') retry = setTimeout(connectFeed, retryMs);
      return;
    }
    open();
  });
}

async function probe(): Promise<FeedStatus> {
  try {
    const res = await fetch(`${apiBase}${feedPath}`, { headers: authHeaders() });
    const body = (await res.json()) as { code?: number };
    return statusOfCode[body.code ?? 0] ?? 'error';
  } catch {
    return 'connecting'; // the server is down or restarting
  }
}

function open(): void {
  const auth = authParam();
  const ws = new WebSocket(`${apiBase.replace(/^http/, 'ws')}${feedPath}${auth ? `?auth=${auth}` : ''}`);
  socket = ws;
  ws.onmessage = (event) => {
    const frame = JSON.parse(String(event.data)) as Frame;
    feed.set({ status: 'live', frames: [...feed.value.frames.slice(-(windowSize - 1)), frame] });
  };
  ws.onclose = () => {
    if (socket !== ws) return; // replaced by a newer connection
    feed.set({ ...feed.value, status: 'connecting' });
    retry = setTimeout(connectFeed, retryMs);
  };
}
