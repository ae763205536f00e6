import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { emojiNames } from './plugins/emoji-names.js';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * The service worker (web/sw/), built after the pages into the same dist/web as one classic
 * script, sw.js at the top: a worker's scope is the directory its script is served from (the
 * app's root, under a path prefix too), and a classic script registers in every browser
 * (module workers are newer in Firefox). Its name is fixed, so it is revalidated at each
 * load (src/transports/web/serve-file.ts), as browsers check it for updates.
 */
export default defineConfig({
  root: here('.'),
  publicDir: false,
  plugins: [emojiNames()],
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: false,
    lib: { entry: here('sw/service-worker.ts'), formats: ['iife'], name: 'tocsinServiceWorker', fileName: () => 'sw.js' },
  },
});
