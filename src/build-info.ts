import { existsSync, readFileSync } from 'node:fs';

/** What GET /v1/version answers (ntfy 2.17's apiVersionResponse: BuildVersion, BuildCommit, BuildDate). */
export interface BuildInfo {
  version: string;
  commit: string;
  date: string;
}

const packageFile = new URL('../../package.json', import.meta.url);
/** Written by `npm run build` (tools/build-info.mjs); absent in a checkout built by hand. */
const buildFile = new URL('../build-info.json', import.meta.url);

/** Read once at startup: the package's version, and the commit and time of the build when it recorded them. */
export function readBuildInfo(): BuildInfo {
  const { version } = JSON.parse(readFileSync(packageFile, 'utf8')) as { version: string };
  const built = existsSync(buildFile) ? (JSON.parse(readFileSync(buildFile, 'utf8')) as Partial<BuildInfo>) : {};
  // ntfy's own builds without release metadata say "unknown" for both.
  return { version, commit: built.commit ?? 'unknown', date: built.date ?? 'unknown' };
}
