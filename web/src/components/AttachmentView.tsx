import { formatBytes, formatTime } from '../lib/format.js';
import { isImage, type Attachment } from '../lib/message.js';

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
          <span>{attachment.name} (expired)</span>
        ) : (
          <a class="attachment-download" href={attachment.url} download={attachment.name} target="_blank" rel="noopener">
            {attachment.name}
          </a>
        )}
        {attachment.size !== undefined && <span class="muted"> · {formatBytes(attachment.size)}</span>}
        {attachment.expires !== undefined && !expired && <span class="muted"> · until {formatTime(attachment.expires)}</span>}
      </div>
    </div>
  );
}
