import type { Message } from '../lib/message.js';
import { announcement } from '../lib/notifier.js';
import { deleteMessage, markRead } from '../lib/subscriptions.js';
import { t } from '../lib/i18n.js';

/** What copying puts on the clipboard: the title and the text, as a reader would quote them. */
const copied = (m: Message): string => [m.title, m.message].filter(Boolean).join('\n');

/** A card's buttons: mark read (while unread), copy its text, delete it from this browser. */
export function CardTools({ message }: { message: Message }) {
  const copy = (): void => {
    void navigator.clipboard.writeText(copied(message)).then(
      () => announcement.set(t('card.copied')),
      () => announcement.set(t('card.copyRefused')),
    );
  };
  return (
    <div class="card-tools">
      {message.unread && (
        <button type="button" onClick={() => markRead(message)}>
          {t('card.markRead')}
        </button>
      )}
      <button type="button" onClick={copy}>
        {t('card.copy')}
      </button>
      <button type="button" onClick={() => deleteMessage(message)}>
        {t('card.delete')}
      </button>
    </div>
  );
}
