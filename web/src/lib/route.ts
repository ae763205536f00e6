import { appRoot } from './config.js';
import { Store } from './store.js';

/** The app's pages, by path below the app root: ntfy's web app's paths, so its links work here too. */
export type Route = { page: 'all' } | { page: 'topic'; topic: string } | { page: 'account' | 'settings' | 'login' | 'signup' };

const pages = new Set(['account', 'settings', 'login', 'signup']);
export const topicName = /^[-_A-Za-z0-9]{1,64}$/;

function parse(pathname: string): Route {
  const path = pathname.startsWith(appRoot) ? pathname.slice(appRoot.length) : pathname.replace(/^\//, '');
  if (pages.has(path)) return { page: path as 'account' };
  if (topicName.test(path)) return { page: 'topic', topic: path };
  return { page: 'all' };
}

export const route = new Store<Route>(parse(window.location.pathname));
window.addEventListener('popstate', () => route.set(parse(window.location.pathname)));

/** Goes to a page ('' for all notifications, a topic, 'account', …), as a link would, without a reload. */
export function navigate(path: string): void {
  window.history.pushState(null, '', appRoot + path);
  route.set(parse(window.location.pathname));
}

/** An href for a page, for links that open in a new tab too. */
export const href = (path: string): string => appRoot + path;
