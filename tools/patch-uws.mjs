#!/usr/bin/env node
// Run by `npm install` (postinstall). Two fixes to the x64 Node 20 binary of uWebSockets.js,
// whose C++ source is not shipped and which no build on npm for this glibc carries:
//
// 1. Header values. uWS trims them with `value.front() < 33` / `value.back() < 33` on a
//    signed `char` (HttpParser.h, still so upstream), so every byte >= 0x80 at either end of a
//    value counts as whitespace: `Title: Überschrift 🎉` arrives as `berschrift`. ntfy reads
//    header values as UTF-8 bytes and clients (curl, ntfy's own CLI) send them raw, so the two
//    signed compares become unsigned ones (jge → jae, jg → ja): still trimming SP, HTAB and
//    control bytes, no longer UTF-8.
// 2. Upgrades made after an await. `res.cork(() => res.upgrade(…))` can close the new
//    WebSocket right after its 101 (uNetworking/uWebSockets#1928, fixed upstream by #1929):
//    when the socket's memory is reallocated in place, cork's epilogue reads the WebSocket as
//    the HTTP response's state. Tocsin therefore upgrades without cork (after an await the 101
//    is then written a header line at a time: more syscalls, the same bytes); this build's
//    only objection to that is a warning on stderr for each upgrade, which the two edits in
//    `res_upgrade<0>` skip (taking the branch it takes inside a corked callback). Nothing
//    else changes.
//
// Each edit is checked against the byte it replaces, and the whole file against its
// SHA-256 before (the original, or the build with only the first fix) and after.
import { createHash } from 'node:crypto';
import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const binary = {
  file: 'binaries/uws_linux_x64_115.node',
  original: 'f158fb441f7e2e37b3ab9a56782fe37f4c0d33b5cd32e96ee5c0120ce7db7ced',
  // the file as an earlier Tocsin left it, with the header fix only
  headerFixOnly: '8b64dfc82ad518b73d830af0c854422feb6108b1c2ce511f799d4ff5444ffa0c',
  patched: '10e8acdfd40c303d41cc74efca7cc06fa917d2306838fbea16622cb8c6be0df2',
  // offset in the file, byte before, byte after
  edits: [
    [0xeb655, 0x7d, 0x73], // HttpContext::init's header parser, trailing trim: jge → jae
    [0xeb670, 0x7f, 0x77], // and leading trim: jg → ja
    [0x107660, 0x74, 0x66], // res_upgrade<0>: `je warn` → a two-byte nop (66 90)
    [0x107661, 0x3b, 0x90],
    [0x10769b, 0x75, 0xeb], // and `jne go-on` (after a second look at insideCorkCallback) → `jmp go-on`
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
if (before !== binary.original && before !== binary.headerFixOnly) {
  console.error(`patch-uws: ${path} is not the expected build (sha256 ${before}); not patched`);
  process.exit(1);
}
for (const [offset, from, to] of binary.edits) {
  if (bytes[offset] !== from && bytes[offset] !== to) throw new Error(`patch-uws: unexpected byte at ${offset.toString(16)}`);
  bytes[offset] = to;
}
if (sha256(bytes) !== binary.patched) throw new Error('patch-uws: patched file has an unexpected checksum');
// A new file renamed over the old one: a running server keeps the file it has mapped.
writeFileSync(`${path}.patched`, bytes);
renameSync(`${path}.patched`, path);
console.log('patch-uws: header values keep their UTF-8 bytes; upgrades need no cork');
