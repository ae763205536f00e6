import type { MarkdownIt } from 'markdown-it';

let parser: Promise<MarkdownIt> | undefined;

/**
 * Markdown as safe HTML. markdown-it with `html: false` escapes every tag in the source,
 * and its link check refuses javascript:, vbscript: and data: (except images) URLs, so
 * what a publisher writes cannot run in the page. Loaded on first use: most messages are
 * plain text, and the parser is the bundle's largest part.
 */
export async function renderMarkdown(source: string): Promise<string> {
  parser ??= import('markdown-it').then(({ default: Markdown }) => new Markdown({ html: false, linkify: true, breaks: true }));
  return (await parser).render(source);
}
