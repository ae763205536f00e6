import { formatBytes, formatTime } from '../lib/format.js';
import { isImage, type Attachment } from '../lib/message.js';
import { t } from '../lib/i18n.js';

/** An attachment: a preview of an image, and a download link with its size and expiry either way. */
export function AttachmentView({ attachment }: { attachment: Attachment }) {
  const expired = attachment.expires !== undefined && attachment.expires * 1000 < Date.now();
  return (
    <div class="attachment">
      {isImage(attachment) && !expired && (
        <a href={attachment.url} target="_blank" rel="noopener">
          <img class="attachment-preview" src={attachment.url} alt={attachment.name} loading="lazy" />
        </a>
      )}
      <div class="attachment-info">
        <span aria-hidden="true">📎</span>{' '}
        {expired ? (
          <span>{t('attachment.expired', { name: attachment.name })}</span>
        ) : (
          <a class="attachment-download" href={attachment.url} download={attachment.name} target="_blank" rel="noopener">
            {attachment.name}
          </a>
        )}
        {attachment.size !== undefined && <span class="muted"> · {formatBytes(attachment.size)}</span>}
        {attachment.expires !== undefined && !expired && <span class="muted"> · {t('attachment.until', { time: formatTime(attachment.expires) })}</span>}
      </div>
    </div>
  );
}
