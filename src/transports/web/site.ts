import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import mime from 'mime-types';
import { ConfigError } from '../../config/load.js';

/** Tocsin's own web app, as `npm install` builds it (web/vite.config.ts): dist/web beside dist/src. */
export const builtInWebDir = fileURLToPath(new URL('../../../web/', import.meta.url));

/** One file of a web build, held in memory with its pre-compressed forms (tools/compress-web.mjs). */
export interface WebFile {
  body: Buffer;
  gzip: Buffer | undefined;
  br: Buffer | undefined;
  /** Content-Type, with a charset for text. */
  type: string;
  /**
   * A digest of the bytes, so a rebuilt file is fetched again; weak (`W/`) because the
   * gzip and brotli forms share it, and a strong ETag must differ between them (RFC 9110 §8.8.1).
   */
  etag: string;
  /** A content-hashed name (Vite's `name-HASH.ext`): it never changes, so browsers may keep it for a year. */
  immutable: boolean;
}

/** Vite (and so ntfy's build) names assets `name-<hash>.ext`, the hash 8 base64url characters (e.g. `index-CRs8Ch4V.js`). */
const hashedName = /[-.][A-Za-z0-9_-]{8}\.[A-Za-z0-9]+$/;
const compressedForm = /\.(gz|br)$/;

/**
 * A static web build, read once at startup: a site's few hundred kilobytes are served
 * from memory, and only paths that exist in it can be asked for (no path reaches the
 * file system, so none can climb out of it). Its page is `index.html`, or `app.html` in a
 * build of ntfy's web app; `dashboard.html` is Tocsin's admin dashboard, when present.
 */
export class WebSite {
  private constructor(
    private readonly files: ReadonlyMap<string, WebFile>,
    readonly app: WebFile,
    readonly dashboard: WebFile | undefined,
    /** Tocsin's own build (web-root `/`), whose pages get the strict Content-Security-Policy (see pagePolicy). */
    readonly ownBuild: boolean,
  ) {}

  static load(dir: string, ownBuild = false): WebSite {
    const files = readBuild(dir);
    const app = files.get('/index.html') ?? files.get('/app.html');
    if (!app) throw new ConfigError(`web-root ${dir} holds neither index.html nor app.html`);
    return new WebSite(files, app, files.get('/dashboard.html'), ownBuild);
  }

  /** The file at a URL path (`/static/index-8HpGdhrU.js`, `/sw.js`), if the build has it. */
  file(path: string): WebFile | undefined {
    return this.files.get(path);
  }
}

/** Every file of a build by its URL path below the build (`/static/app.js`), its compressed forms beside it. */
export function readBuild(dir: string): Map<string, WebFile> {
  const files = new Map<string, WebFile>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || compressedForm.test(entry.name)) continue;
    const path = join(entry.parentPath, entry.name);
    const sibling = (suffix: string): Buffer | undefined => (existsSync(path + suffix) ? readFileSync(path + suffix) : undefined);
    files.set(`/${relative(dir, path).split(sep).join('/')}`, webFile(path, readFileSync(path), sibling('.gz'), sibling('.br')));
  }
  return files;
}

/** A file of a build as served: its type from the name, its ETag from the bytes. */
export function webFile(path: string, body: Buffer, gzip: Buffer | undefined, br: Buffer | undefined): WebFile {
  return {
    body,
    gzip,
    br,
    type: mime.contentType(extname(path)) || 'application/octet-stream',
    etag: `W/"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`,
    immutable: hashedName.test(path),
  };
}

/**
 * The site web-root names: Tocsin's own build for `/` (none, with a warning, when it was not
 * built), another build for a directory, none for `disable`. A web-root directory that is
 * not one stops startup.
 */
export function openWebSite(webRoot: string, warn: (message: string) => void): WebSite | undefined {
  if (webRoot === '') return undefined;
  if (webRoot === '/') {
    if (existsSync(builtInWebDir)) return WebSite.load(builtInWebDir, true);
    warn(`the web app is not built (${builtInWebDir} is missing; npm install or npm run build makes it): / and /{topic} answer 404`);
    return undefined;
  }
  if (!existsSync(webRoot) || !statSync(webRoot).isDirectory()) throw new ConfigError(`web-root ${webRoot} is not a directory (nor / or disable)`);
  return WebSite.load(webRoot);
}
