import { appRoot } from './config.js';
import { Store } from './store.js';

/**
 * The app's pages, by path below the app root: ntfy's web app's paths, so its links work
 * here too; the pages mailed magic links open (ntfy 2.25) carry the link's token.
 */
export type Route =
  | { page: 'all' }
  /** `server`: another server's topic, its path segment (servers.ts serverSegment), as ntfy's /{server}/{topic}. */
  | { page: 'topic'; topic: string; server?: string }
  | { page: 'account' | 'admin' | 'settings' | 'login' | 'signup' | 'forgot-password' }
  | { page: 'verify-email' | 'reset-password'; token: string };

const pages = new Map<string, Route>([
  ['account', { page: 'account' }],
  // Below account, which no topic may be named: a topic named admin keeps its page.
  ['account/admin', { page: 'admin' }],
  ['settings', { page: 'settings' }],
  ['login', { page: 'login' }],
  ['signup', { page: 'signup' }],
  ['account/password/reset', { page: 'forgot-password' }],
]);
export const topicName = /^[-_A-Za-z0-9]{1,64}$/;
const linkPage = /^account\/(email\/verify|password\/reset)\/([-_A-Za-z0-9]+)$/;
/** /{server}/{topic}: a server segment has a dot or a colon (a host name, an address, a port), which no page of the app has; the server serves the app there too. */
const otherServerTopic = /^([^/.:]*[.:][^/]*)\/([-_A-Za-z0-9]{1,64})$/;

/** Pages a visitor who is not logged in may see under require-login. */
export const openPages: ReadonlySet<Route['page']> = new Set(['login', 'signup', 'forgot-password', 'verify-email', 'reset-password']);

function parse(pathname: string): Route {
  const path = pathname.startsWith(appRoot) ? pathname.slice(appRoot.length) : pathname.replace(/^\//, '');
  const page = pages.get(path);
  if (page) return page;
  const link = linkPage.exec(path);
  if (link) return { page: link[1] === 'email/verify' ? 'verify-email' : 'reset-password', token: link[2] as string };
  if (topicName.test(path)) return { page: 'topic', topic: path };
  const other = otherServerTopic.exec(path);
  if (other) return { page: 'topic', server: other[1] as string, topic: other[2] as string };
  return { page: 'all' };
}

export const route = new Store<Route>(parse(window.location.pathname));
window.addEventListener('popstate', () => route.set(parse(window.location.pathname)));

/** Goes to a page ('' for all notifications, a topic, 'account', …), as a link would, without a reload; `replace` leaves no history entry. */
export function navigate(path: string, replace = false): void {
  if (replace) window.history.replaceState(null, '', appRoot + path);
  else window.history.pushState(null, '', appRoot + path);
  route.set(parse(window.location.pathname));
}

/** An href for a page, for links that open in a new tab too. */
export const href = (path: string): string => appRoot + path;
