import type { Message } from '../lib/message.js';
import { announcement } from '../lib/notifier.js';
import { deleteMessage, markRead } from '../lib/subscriptions.js';

/** What copying puts on the clipboard: the title and the text, as a reader would quote them. */
const copied = (m: Message): string => [m.title, m.message].filter(Boolean).join('\n');

/** A card's buttons: mark read (while unread), copy its text, delete it from this browser. */
export function CardTools({ message }: { message: Message }) {
  const copy = (): void => {
    void navigator.clipboard.writeText(copied(message)).then(
      () => announcement.set('Notification copied to the clipboard'),
      () => announcement.set('The browser did not allow copying to the clipboard'),
    );
  };
  return (
    <div class="card-tools">
      {message.unread && (
        <button type="button" onClick={() => markRead(message)}>
          Mark read
        </button>
      )}
      <button type="button" onClick={copy}>
        Copy
      </button>
      <button type="button" onClick={() => deleteMessage(message)}>
        Delete
      </button>
    </div>
  );
}
