#!/usr/bin/env node
// Pre-compresses a web build (the prepare step runs it on dist/web; run it on your own
// web-root DIR to have that served compressed too): beside each text file worth
// compressing, FILE.gz and FILE.br, which the server picks from Accept-Encoding
// (src/transports/web/). Compressing once at build time lets brotli use its best level,
// too slow (tens of ms per 100 KB) to run per request.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';

const compressible = /\.(html|js|mjs|css|json|svg|txt|map|webmanifest|ico)$/;
// Below about one TCP packet compression saves nothing worth a header and a lookup.
const minBytes = 1024;

const dir = process.argv[2];
if (!dir) {
  console.error('usage: node tools/compress-web.mjs DIR');
  process.exit(2);
}
let count = 0;
for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
  const path = join(entry.parentPath, entry.name);
  if (!entry.isFile() || !compressible.test(entry.name)) continue;
  const bytes = readFileSync(path);
  if (bytes.length < minBytes) continue;
  writeFileSync(`${path}.gz`, gzipSync(bytes, { level: 9 }));
  writeFileSync(`${path}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
  count++;
}
console.log(`compress-web: ${count} files in ${dir} with .gz and .br beside them`);
