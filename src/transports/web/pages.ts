import { errors } from '../../model/errors.js';
import type { ServerContext } from '../context.js';
import type { RequestInfo } from '../http/request.js';
import type { Exchange } from '../http/respond.js';
import type { DocsFile } from './docs-site.js';
import { pagePolicy } from './page-policy.js';
import { serveWebFile } from './serve-file.js';

/**
 * Whether a GET is a browser opening a page: its navigations ask for `text/html`; curl,
 * ntfy's CLI and apps and UnifiedPush distributors never do. ntfy serves its page to any
 * GET of / or /{topic}; Tocsin only to a browser, so every other client keeps the JSON
 * answers it had before there was a web app (404, UnifiedPush discovery).
 */
export function isBrowser(req: RequestInfo): boolean {
  return req.headers.get('accept')?.includes('text/html') ?? false;
}

/** Serves the web app's page (or the dashboard's) to a browser, with its policy; false when not a browser or the web app is off. */
export function servePage(ctx: ServerContext, ex: Exchange, req: RequestInfo, page: 'app' | 'dashboard', headers: readonly [string, string][] = []): boolean {
  const site = ctx.web;
  const file = site?.[page];
  if (!site || !file || !isBrowser(req)) return false;
  serveWebFile(ex, req, file, [['Content-Security-Policy', pagePolicy(site.ownBuild)], ...headers]);
  return true;
}

/** GET /static/… and the build's top-level files (/sw.js, /favicon.ico): what the pages load. */
export function serveStatic(ctx: ServerContext, ex: Exchange, req: RequestInfo): void {
  serveStaticAt(ctx, ex, req, req.path);
}

/** The build's file at `path`, asked for at another URL (the link pages' relative ones). */
export function serveStaticAt(ctx: ServerContext, ex: Exchange, req: RequestInfo, path: string): void {
  const file = ctx.web?.file(path);
  if (!file) throw errors.notFound;
  serveWebFile(ex, req, file);
}

/**
 * GET /docs and /docs/…: the docs site (docs-site.ts). `/docs` is sent on to `/docs/` by a
 * relative Location, as ntfy's file server does, so it stays below a path prefix. A page the
 * site lacks is 404: VitePress's page to a browser, ntfy's error to anyone else.
 */
export function serveDocs(ctx: ServerContext, ex: Exchange, req: RequestInfo, [rest]: string[]): void {
  const docs = ctx.docs;
  if (!docs) throw errors.notFound;
  if (rest === undefined) return ex.send(301, '', 'text/plain', [['Location', 'docs/']]);
  const found = docs.find(rest);
  if (found) return serveDocsFile(ex, req, found);
  if (!docs.notFound || !isBrowser(req)) throw errors.notFound;
  serveDocsFile(ex, req, docs.notFound, 404);
}

function serveDocsFile(ex: Exchange, req: RequestInfo, { file, policy }: DocsFile, status?: number): void {
  serveWebFile(ex, req, file, policy ? [['Content-Security-Policy', policy]] : [], status);
}
