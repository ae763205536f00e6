import { createHash } from 'node:crypto';
import { Parser } from 'htmlparser2';
import { always } from './page-policy.js';

const sha256 = (text: string): string => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

/**
 * The Content-Security-Policy of a page of the docs site. VitePress writes two small inline
 * scripts into each page (its dark-mode and macOS checks, which must run before the first
 * paint). Rather than allow inline scripts, the policy names this page's own by their
 * SHA-256 (CSP 3 hash sources), read once when the site is loaded: the docs share the web
 * app's origin, and so its session token in localStorage. Styles may be inline: Vue sets
 * style attributes as it renders a page in the browser (no list of hashes can know them),
 * a style runs no code, and the docs hold no one's input. Everything else (scripts,
 * stylesheets, fonts, images, the search index) comes from this server, and the rest is
 * the web app's policy: no plugins, no <base>, no framing.
 */
export function docsPagePolicy(html: string): string {
  const scripts = new Set<string>();
  let script: string | undefined;
  const parser = new Parser({
    onopentag(name, attributes) {
      if (name === 'script' && attributes.src === undefined) script = '';
    },
    ontext(text) {
      if (script !== undefined) script += text;
    },
    onclosetag(name) {
      if (name !== 'script' || script === undefined) return;
      scripts.add(sha256(script));
      script = undefined;
    },
  });
  parser.end(html);
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scripts].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    ...always,
  ].join('; ');
}
