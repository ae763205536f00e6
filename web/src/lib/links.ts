/** Schemes the page links to: a web page, a mail or a map (ntfy's click and view examples). */
const linkable = /^(?:https?:\/\/|mailto:|geo:)/i;

/**
 * A message's click or view URL as a link, or undefined when the page must not link to it.
 * The server refuses `javascript:` and `data:` URLs at publish, but a store may hold messages
 * from before (or from another server), and a link is where such a URL would run in this
 * page, beside the session token. App links (`ntfy://`) open nothing in a browser anyway.
 */
export function safeHref(url: string | undefined): string | undefined {
  return url !== undefined && linkable.test(url) ? url : undefined;
}
