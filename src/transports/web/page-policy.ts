/** What every page's policy says, whoever built it (the docs' too): no plugins, no <base>, no framing, forms to this server only. */
export const always: readonly string[] = ["object-src 'none'", "base-uri 'none'", "frame-ancestors 'none'", "form-action 'self'"];

/**
 * The Content-Security-Policy a page is served with (issue 33, finding 8): the web app keeps
 * its session token in localStorage, so a script injected into it (a message's link, a
 * markup slip) must have nowhere to run and nothing to load. Tocsin's own build has no
 * inline script or style (Vite writes them to files; Preact sets styles through the CSSOM,
 * which style-src does not govern), so it gets the strict policy: scripts and styles from
 * this server only, images also from https: and data: (notification icons and attachments
 * live elsewhere). Another build (web-root a directory, e.g. ntfy's, which has an inline
 * script and MUI's injected styles) gets the part that breaks nothing: no plugins, no
 * <base>, no framing, forms to this server only.
 */
export function pagePolicy(ownBuild: boolean): string {
  if (!ownBuild) return always.join('; ');
  // Connections go anywhere over http(s) and ws(s): the app subscribes and publishes to other
  // servers the visitor names (issue 40, as ntfy's web app, which sets no policy), and sends
  // the http action buttons' requests itself. A list of servers would guard nothing:
  // img-src https: already lets a request out anywhere, and an injected script is what
  // script-src stops.
  const connect = ["'self'", 'https:', 'http:', 'wss:', 'ws:'];
  return ["default-src 'self'", "script-src 'self'", "style-src 'self'", "img-src 'self' data: https:", `connect-src ${connect.join(' ')}`, ...always].join('; ');
}
