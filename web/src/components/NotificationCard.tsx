import { splitTags } from '../lib/emoji.js';
import { formatTime } from '../lib/format.js';
import { safeHref } from '../lib/links.js';
import { isMarkdown, type Message } from '../lib/message.js';
import { ActionButtons } from './ActionButtons.js';
import { AttachmentView } from './AttachmentView.js';
import { CardTools } from './CardTools.js';
import { Markdown } from './Markdown.js';
import { MessageText } from './MessageText.js';
import { t } from '../lib/i18n.js';

/** The priorities a card names (the default, 3, goes unsaid). */
const named = new Set([1, 2, 4, 5]);

/** One notification: emojis and title, priority, time, the message (Markdown rendered), tags, attachment, actions; `topic` named in the list of every topic. */
export function NotificationCard({ message, topic }: { message: Message; topic?: string }) {
  const { emojis, words } = splitTags(message.tags);
  const priority = message.priority ?? 3;
  // Emojis go before the title, or before the text when there is no title (never both, as ntfy's apps).
  const heading = message.title ? [...emojis, message.title].join(' ') : '';
  return (
    <article class={`card priority-${priority}${message.unread ? ' unread' : ''}`} data-id={message.id}>
      <header class="card-header">
        <span class="muted">
          {formatTime(message.time)}
          {topic && <> · {topic}</>}
        </span>
        {message.unread && <span class="new-badge">{t('card.new')}</span>}
        {named.has(priority) && <span class={`priority priority-badge-${priority}`}>{t(`priority.${priority as 1 | 2 | 4 | 5}`)}</span>}
      </header>
      {heading && <h3 class="card-title">{heading}</h3>}
      {message.message !== undefined &&
        (isMarkdown(message) ? <Markdown source={message.message} /> : <MessageText text={!message.title && emojis.length > 0 ? `${emojis.join(' ')} ${message.message}` : message.message} />)}
      {message.click &&
        (safeHref(message.click) ? (
          <a class="click" href={safeHref(message.click)} target="_blank" rel="noopener">
            {message.click}
          </a>
        ) : (
          <span class="click">{message.click}</span>
        ))}
      {message.attachment && <AttachmentView attachment={message.attachment} />}
      {words.length > 0 && (
        <div class="tags">
          {words.map((w) => (
            <span class="tag">{w}</span>
          ))}
        </div>
      )}
      {message.actions && message.actions.length > 0 && <ActionButtons actions={message.actions} />}
      <CardTools message={message} />
    </article>
  );
}
