import preact from '@preact/preset-vite';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import { appIcons } from './plugins/app-icons.js';
import { emojiNames } from './plugins/emoji-names.js';

const here = (path: string): string => fileURLToPath(new URL(path, import.meta.url));

/**
 * The web app and the dashboard, built by `npm install` (the prepare script) into dist/web,
 * where src/transports/web/ serves them. `base: './'`: every URL in the pages is relative,
 * so they work under a path prefix (base-url with a path, behind a proxy that strips it);
 * the hashed files go to static/ (the path ntfy serves them under).
 */
export default defineConfig({
  root: here('.'),
  base: './',
  plugins: [preact(), emojiNames(), appIcons(here('public/favicon.svg'))],
  build: {
    outDir: here('../dist/web'),
    emptyOutDir: true,
    assetsDir: 'static',
    rollupOptions: { input: { index: here('index.html'), dashboard: here('dashboard.html') } },
  },
});
