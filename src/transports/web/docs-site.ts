import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
import { docsPagePolicy } from './docs-policy.js';
import { readBuild, webFile, type WebFile } from './site.js';

/** The documentation site as `npm run build` makes it (VitePress, docs/.vitepress/config.mts): dist/docs beside dist/src. */
export const builtInDocsDir = fileURLToPath(new URL('../../../docs/', import.meta.url));

/** The base VitePress builds the site for: every URL in it starts with this. */
const sitePath = '/docs/';

/** A file of the docs site; a page carries its Content-Security-Policy. */
export interface DocsFile {
  file: WebFile;
  policy: string | undefined;
}

/**
 * The docs site, read into memory once at startup as the web app is (site.ts): only paths
 * that exist in the build can be asked for. Pages have clean URLs (`/docs/configuration`
 * is configuration.html, `/docs/` is index.html). Vite names everything under assets/ by
 * its content, so those may be cached for good.
 */
export class DocsSite {
  private constructor(
    private readonly files: ReadonlyMap<string, DocsFile>,
    /** 404.html, for a browser asking for a page the site does not have. */
    readonly notFound: DocsFile | undefined,
  ) {}

  /** `prefix`: the path base-url adds in front (`/ntfy` behind a proxy that strips it), or ''. */
  static load(dir: string, prefix: string): DocsSite {
    const files = new Map<string, DocsFile>();
    for (const [path, read] of readBuild(dir)) {
      const file = { ...(prefix ? rebased(path, read, prefix) : read), immutable: path.startsWith('/assets/') };
      files.set(path, { file, policy: path.endsWith('.html') ? docsPagePolicy(file.body.toString()) : undefined });
    }
    return new DocsSite(files, files.get('/404.html'));
  }

  /** What `/docs/<rest>` names: a page by its clean URL or its file name, or another file. */
  find(rest: string): DocsFile | undefined {
    const path = `/${rest || 'index'}`;
    return this.files.get(`${path}.html`) ?? this.files.get(path);
  }
}

/** Where VitePress wrote the base as a URL's start: in an attribute, a string, a CSS url(). Not inside prose or other URLs (`…/main/docs/`). */
const baseInUrl = /(?<=["'`(=])\/docs\//g;
const textFile = /\.(html|js|css|json)$/;

/**
 * A file of a site built for /docs/ rewritten for a server below a path prefix: the browser
 * must ask for `/ntfy/docs/…`, and VitePress's router finds pages by the base it was built
 * with (in a script, not derived from the page's URL). Compressed again (a quick brotli
 * level: this runs at each start of such a server, over a megabyte or so).
 */
function rebased(path: string, file: WebFile, prefix: string): WebFile {
  if (!textFile.test(path)) return file;
  const text = file.body.toString();
  const body = Buffer.from(text.replace(baseInUrl, `${prefix}${sitePath}`));
  if (body.equals(file.body)) return file;
  const compressed = file.gzip !== undefined;
  return webFile(path, body, compressed ? gzipSync(body) : undefined, compressed ? brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 5 } }) : undefined);
}

/**
 * The docs site for a server, served at /docs as ntfy serves its own: none when web-root is
 * `disable` (ntfy's ensureWebEnabled), nor when it was not built (ntfy's placeholder build
 * answers 404 too), which is said once at startup.
 */
export function openDocsSite(webRoot: string, prefix: string, warn: (message: string) => void): DocsSite | undefined {
  if (webRoot === '') return undefined;
  if (existsSync(builtInDocsDir)) return loadedOnce(prefix);
  warn(`the docs site is not built (${builtInDocsDir} is missing; npm run build makes it): /docs answers 404`);
  return undefined;
}

/** The build read once per process and prefix: the test suites start many servers in one process, each of which would otherwise hold its own copy of the same few megabytes. */
const loaded = new Map<string, DocsSite>();
function loadedOnce(prefix: string): DocsSite {
  const site = loaded.get(prefix) ?? DocsSite.load(builtInDocsDir, prefix);
  loaded.set(prefix, site);
  return site;
}
