#!/usr/bin/env node
// Run by `npm install` (postinstall). uWebSockets.js trims header values with
// `value.front() < 33` / `value.back() < 33` on a signed `char` (HttpParser.h, still so
// upstream), so every byte >= 0x80 at either end of a value counts as whitespace:
// `Title: Überschrift 🎉` arrives as `berschrift`. ntfy reads header values as UTF-8 bytes
// and clients (curl, ntfy's own CLI) send them raw, so Tocsin needs them whole.
//
// No build of uWebSockets.js fixes it and this one's C++ source is not shipped, so this
// turns the two signed compares of the x64 Node 20 binary into unsigned ones (jge → jae,
// jg → ja): still trimming SP, HTAB and control bytes, no longer UTF-8. The file is
// patched only when its SHA-256 is the known original, and checked after.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const binary = {
  file: 'binaries/uws_linux_x64_115.node',
  original: 'f158fb441f7e2e37b3ab9a56782fe37f4c0d33b5cd32e96ee5c0120ce7db7ced',
  patched: '8b64dfc82ad518b73d830af0c854422feb6108b1c2ce511f799d4ff5444ffa0c',
  // offset in the file, byte before, byte after (inside HttpContext::init's header parser)
  edits: [
    [0xeb655, 0x7d, 0x73], // trailing trim: jge → jae
    [0xeb670, 0x7f, 0x77], // leading trim: jg → ja
  ],
};

const sha256 = (bytes) => createHash('sha256').update(bytes).digest('hex');

const root = dirname(createRequire(import.meta.url).resolve('uWebSockets.js/package.json'));
const path = join(root, binary.file);
if (`${process.platform}_${process.arch}_${process.versions.modules}` !== 'linux_x64_115') {
  console.warn(`patch-uws: no patch for this platform; header values lose non-ASCII bytes at their ends`);
  process.exit(0);
}
const bytes = readFileSync(path);
const before = sha256(bytes);
if (before === binary.patched) process.exit(0);
if (before !== binary.original) {
  console.error(`patch-uws: ${path} is not the expected build (sha256 ${before}); not patched`);
  process.exit(1);
}
for (const [offset, from, to] of binary.edits) {
  if (bytes[offset] !== from) throw new Error(`patch-uws: unexpected byte at ${offset.toString(16)}`);
  bytes[offset] = to;
}
if (sha256(bytes) !== binary.patched) throw new Error('patch-uws: patched file has an unexpected checksum');
// A new file renamed over the old one: a running server keeps the file it has mapped.
writeFileSync(`${path}.patched`, bytes);
renameSync(`${path}.patched`, path);
console.log('patch-uws: header values keep their UTF-8 bytes');
