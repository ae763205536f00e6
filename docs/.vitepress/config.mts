import { defineConfig } from 'vitepress';

/**
 * The docs site (issue 40): `npm run build` builds docs/ into dist/docs, which the server
 * serves at /docs (src/transports/web/docs-site.ts), as ntfy serves its own. It must work
 * offline and under the server's Content-Security-Policy: the default theme's fonts are
 * bundled, the search is VitePress's local one (its index is a file of the build), and
 * nothing is loaded from elsewhere. Clean URLs: the server maps /docs/publishing to
 * publishing.html.
 */
export default defineConfig({
  title: 'Tocsin',
  description: 'A self-hosted publish/subscribe notification server that speaks ntfy’s protocol',
  base: '/docs/',
  outDir: '../dist/docs',
  cacheDir: '../dist/.vitepress-cache',
  cleanUrls: true,
  lastUpdated: false,
  // Until the README's other sections move here, the configuration table links to pages still to come.
  ignoreDeadLinks: true,
  markdown: {
    // Inline code is shown as written: Go templates (`{{.Title}}`) must not be read as Vue's.
    config(md) {
      const render = md.renderer.rules.code_inline;
      md.renderer.rules.code_inline = (tokens, index, options, env, self) =>
        (render ? render(tokens, index, options, env, self) : self.renderToken(tokens, index, options)).replace(/^<code/, '<code v-pre');
    },
  },
  themeConfig: {
    search: { provider: 'local' },
    outline: [2, 3],
    sidebar: [
      {
        text: 'Getting started',
        items: [
          { text: 'Introduction', link: '/' },
          { text: 'Configuration', link: '/configuration' },
        ],
      },
    ],
  },
});
