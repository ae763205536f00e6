import { useEffect, useState } from 'preact/hooks';
import { renderMarkdown } from '../lib/markdown.js';

/** A Markdown message, rendered to sanitized HTML (lib/markdown.ts); the plain text until the parser loaded. */
export function Markdown({ source }: { source: string }) {
  const [html, setHtml] = useState<string | undefined>(undefined);
  useEffect(() => {
    let current = true;
    void renderMarkdown(source).then((rendered) => current && setHtml(rendered));
    return () => {
      current = false;
    };
  }, [source]);
  if (html === undefined) return <div class="message-text">{source}</div>;
  return <div class="message-markdown" dangerouslySetInnerHTML={{ __html: html }} />;
}
