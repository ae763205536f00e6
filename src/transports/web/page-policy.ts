import type { RequestInfo } from '../http/request.js';

/** A Host header that is a host name or IP address with an optional port, nothing else. */
const hostPattern = /^(?:[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])(?::\d{1,5})?$/;

/**
 * The Content-Security-Policy a page is served with (issue 33, finding 8): the web app keeps
 * its session token in localStorage, so a script injected into it (a message's link, a
 * markup slip) must have nowhere to run and nothing to load. Tocsin's own build has no
 * inline script or style (Vite writes them to files; Preact sets styles through the CSSOM,
 * which style-src does not govern), so it gets the strict policy: scripts and styles from
 * this server only, connections to it (its WebSocket on the host the page was asked from and
 * base-url's, which the app calls) and to http(s) URLs, images also from https: and data:
 * (notification icons and attachments live elsewhere). Another build (web-root a directory, e.g. ntfy's, which
 * has an inline script and MUI's injected styles) gets the part that breaks nothing: no
 * plugins, no <base>, no framing, forms to this server only.
 */
export function pagePolicy(req: RequestInfo, ownBuild: boolean, baseUrl: string): string {
  const always = ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"];
  if (!ownBuild) return always.join('; ');
  // http: and https: for the http action buttons, whose request the page sends itself;
  // img-src https: lets a request out anywhere already, so narrowing this would guard nothing.
  const connect = ["'self'", 'https:', 'http:'];
  const host = req.headers.get('host');
  if (host && hostPattern.test(host)) connect.push(`ws://${host}`, `wss://${host}`);
  if (baseUrl !== '') {
    const { origin, host: baseHost, protocol } = new URL(baseUrl);
    connect.push(origin, `${protocol === 'https:' ? 'wss' : 'ws'}://${baseHost}`);
  }
  return ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: https:", `connect-src ${connect.join(' ')}`, ...always].join('; ');
}
