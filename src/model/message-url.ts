/**
 * The URLs a message carries (click, action buttons, icon, attachment) are opened or
 * fetched by every subscriber's app, and shown as links by the web app: a `javascript:`
 * or `data:` URL there runs in the page that holds the session token (issue 33, finding 8).
 * So each is checked at publish, on the scheme as a browser reads it.
 */

/**
 * `open`: a link the user taps (click, view actions): http(s), and what ntfy's docs name
 * for them ("Click action", "Open website/app"): `mailto:`, `geo:` and app links of the
 * form `name://…` (`ntfy://`, `twitter://`). `fetch`: a URL the app requests itself
 * (icon, attachment, http actions): http(s) only, as ntfy.
 */
export type UrlUse = 'open' | 'fetch';

/**
 * Longer URLs fail where links travel (browsers' and CDNs' request lines, sitemaps cap at
 * 2,048), and a link needs none of the length a `data:` payload would; this also bounds
 * what each URL adds to a stored message.
 */
export const maxUrlLength = 2048;

/** RFC 3986 §3.1, at the very start: a browser finds a scheme nowhere else. */
const schemePattern = /^([a-zA-Z][a-zA-Z0-9+.-]*):/;
const webSchemes = new Set(['http', 'https']);
const openSchemes = new Set(['mailto', 'geo']);
/** Schemes that run code, read local data or launch arbitrary intents, even in the `name://` form (`javascript://%0aalert(1)`). */
const refusedAppSchemes = new Set(['javascript', 'vbscript', 'livescript', 'data', 'file', 'blob', 'filesystem', 'about', 'intent', 'view-source', 'jar']);

/** Why `url` may not be stored for `use`, or undefined when it may. */
export function urlRefusal(url: string, use: UrlUse): string | undefined {
  if (url.length > maxUrlLength) return `longer than ${maxUrlLength} characters`;
  // The WHATWG parser drops tabs and newlines anywhere and control characters at the ends: `java\tscript:` is javascript:.
  if (hasControl(url)) return 'a control character';
  const scheme = schemePattern.exec(url)?.[1]?.toLowerCase();
  if (scheme === undefined) return 'no scheme';
  if (webSchemes.has(scheme)) return URL.canParse(url) ? undefined : 'not a valid URL';
  if (use === 'fetch') return `scheme ${scheme}: is not http or https`;
  if (openSchemes.has(scheme)) return undefined;
  if (url.startsWith('//', scheme.length + 1) && !refusedAppSchemes.has(scheme)) return undefined;
  return `scheme ${scheme}: is not allowed`;
}

function hasControl(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c === 0x7f) return true;
  }
  return false;
}
