// Records the commit and time of this build in dist/build-info.json, which GET /v1/version
// reports (src/build-info.ts). Outside a git checkout (a package tarball) the commit is "unknown".
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';

let commit = 'unknown';
try {
  commit = execFileSync('git', ['rev-parse', 'HEAD'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] }).trim();
} catch {
  // not a git checkout, or no git: the commit stays unknown
}
mkdirSync('dist', { recursive: true });
writeFileSync('dist/build-info.json', `${JSON.stringify({ commit, date: new Date().toISOString() })}\n`);
