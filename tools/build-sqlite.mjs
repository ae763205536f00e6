#!/usr/bin/env node
// Run by `npm install` (postinstall): compiles better-sqlite3 from source.
// Its own install script (package.json `allowScripts` keeps it off) first tries to
// download a prebuilt binary, then has node-gyp download Node's headers; neither host may
// be reachable. Node installs that ship their headers (Debian's nodejs: /usr/include/node)
// need no download when node-gyp is pointed at them, and passing `--nodedir` here does it
// without an `.npmrc` setting, which npm 11 warns about on every command.
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const root = dirname(createRequire(import.meta.url).resolve('better-sqlite3/package.json'));
if (existsSync(join(root, 'build/Release/better_sqlite3.node'))) process.exit(0);

const prefix = dirname(dirname(process.execPath));
const args = ['rebuild', '--release'];
if (existsSync(join(prefix, 'include/node/node.h'))) args.push(`--nodedir=${prefix}`);
// npm puts its bundled node-gyp on the PATH of every lifecycle script.
execFileSync('node-gyp', args, { cwd: root, stdio: 'inherit' });
