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
          { text: 'Install', link: '/install' },
          { text: 'Configuration', link: '/configuration' },
        ],
      },
      {
        text: 'Using it',
        items: [
          { text: 'Publishing', link: '/publishing' },
          { text: 'Subscribing', link: '/subscribing' },
          { text: 'The web app', link: '/web-app' },
          { text: 'E-mail and phone calls', link: '/email-and-calls' },
          { text: 'Alerts and monitors', link: '/alerts' },
          { text: 'Command line', link: '/cli' },
        ],
      },
      {
        text: 'Running it',
        items: [
          { text: 'Access control', link: '/access-control' },
          { text: 'Account and admin API', link: '/admin-api' },
          { text: 'Clusters', link: '/clusters' },
          { text: 'Operations', link: '/operations' },
        ],
      },
      {
        text: 'Inside',
        items: [
          { text: 'How it is built', link: '/architecture' },
          { text: 'Performance', link: '/performance' },
          { text: 'Compatibility with ntfy', link: '/compatibility' },
        ],
      },
    ],
  },
});
