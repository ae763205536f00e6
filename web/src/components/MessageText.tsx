import { linkify } from '../lib/linkify.js';

/** A plain-text message, its http(s) and mailto URLs as links. */
export function MessageText({ text }: { text: string }) {
  return (
    <div class="message-text">
      {linkify(text).map((part) =>
        part.href ? (
          <a href={part.href} target="_blank" rel="noopener">
            {part.text}
          </a>
        ) : (
          part.text
        ),
      )}
    </div>
  );
}
