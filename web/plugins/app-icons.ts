import { readFileSync } from 'node:fs';
import { Resvg } from '@resvg/resvg-js';
import type { Plugin } from 'vite';

/** The icon's background, filling the square where a platform crops its own shape. */
const background = '#2f7d6d';

/**
 * The PNG icons an installed app needs, drawn at build time from the one SVG icon (the
 * favicon): Chrome installs an app only with 192 and 512 px icons in its manifest
 * (web/public/manifest.webmanifest); Android crops "maskable" icons to its own shape,
 * keeping only the middle 80 %, and iOS takes a square 180 px apple-touch-icon, with no
 * transparency, for the home screen. They go to static/ under fixed names, which the
 * manifest and index.html name.
 */
export function appIcons(svgPath: string): Plugin {
  return {
    name: 'tocsin-app-icons',
    apply: 'build',
    generateBundle() {
      const svg = readFileSync(svgPath, 'utf8');
      // The same drawing, shrunk into the safe zone of a full-bleed square.
      const fullBleed = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 80 80"><rect width="80" height="80" fill="${background}"/>${svg.replace('<svg ', '<svg x="8" y="8" width="64" height="64" ')}</svg>`;
      const icons: [string, string, number][] = [
        ['static/icon-192.png', svg, 192],
        ['static/icon-512.png', svg, 512],
        ['static/icon-maskable-512.png', fullBleed, 512],
        ['static/apple-touch-icon.png', fullBleed, 180],
      ];
      for (const [fileName, source, size] of icons) {
        const png = new Resvg(source, { fitTo: { mode: 'width', value: size } }).render().asPng();
        this.emitFile({ type: 'asset', fileName, source: png });
      }
    },
  };
}
