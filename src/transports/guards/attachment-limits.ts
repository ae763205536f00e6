import { errors } from '../../model/errors.js';
import type { Usage } from '../../store/attachment-store.js';
import type { Upload } from './guard.js';

/**
 * The limits of an upload, checked where its data is: some before it starts, the rest as
 * its bytes arrive (its size is known only while the body streams). A refusal is 41301
 * (entity too large) and leaves no file.
 */
export interface UploadGuard {
  /** Before anything is stored. */
  start(upload: Upload): void;
  /** Whether `bytes` more fit an upload holding `size`, against the live usage (uploads running at once see each other). */
  fits(upload: Upload, bytes: number, size: number, usage: Usage): boolean;
  /** Spends what `bytes` cost as they flow; false, spending nothing, refuses them. */
  spend(upload: Upload, bytes: number): boolean;
}

/**
 * ntfy's handleBodyAsAttachment: a file kept past its message's delivery (40015), and the
 * smallest of the visitor's file limit, what is left of its owner's total (see
 * attachmentOwner), of the server's total and of the visitor's daily bandwidth, which is
 * spent as the bytes flow, as ntfy's bandwidth limiter.
 */
export const attachmentLimits: UploadGuard = {
  start({ message, expires }) {
    if (message.time > expires) throw errors.attachmentExpiryBeforeDelivery;
  },
  fits({ gate }, bytes, size, usage) {
    const { visitor, ctx } = gate;
    const { attachmentFileSize, attachmentTotalSize } = visitor.limits;
    return (
      size + bytes <= attachmentFileSize &&
      usage.owner + bytes <= attachmentTotalSize &&
      usage.total + bytes <= ctx.config.attachmentTotalSizeLimit &&
      visitor.bandwidthLeft(Date.now()) >= bytes
    );
  },
  spend({ gate }, bytes) {
    return gate.visitor.transfer(bytes, Date.now());
  },
};
