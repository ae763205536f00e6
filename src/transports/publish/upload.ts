import { isUtf8 } from 'node:buffer';
import { fileTypeFromBuffer } from 'file-type';
import { contentType } from 'mime-types';
import { extname } from 'node:path';
import { errors } from '../../model/errors.js';
import { nowSeconds, type Message } from '../../model/message.js';
import { TooLarge, type AllowWrite, type Usage } from '../../store/attachment-store.js';
import type { Visitor } from '../../visitors/visitors.js';
import type { ServerContext } from '../context.js';
import type { Body } from '../http/body.js';
import type { BodyStream } from '../http/body-stream.js';
import type { RequestInfo } from '../http/request.js';

/**
 * ntfy's handleBodyAsAttachment: streams the body into the attachment store under the
 * message's id, within the smallest of the visitor's file limit, what is left of the
 * `owner`'s total (see attachmentOwner), of the server's total and of the visitor's daily bandwidth (41301 the
 * moment one is crossed, leaving no file), and makes the message's `attachment` of it.
 */
export async function storeUpload(
  ctx: ServerContext,
  req: RequestInfo,
  message: Message,
  name: string,
  head: Body,
  rest: BodyStream | undefined,
  { visitor, owner }: { visitor: Visitor; owner: string },
): Promise<void> {
  const store = ctx.attachments;
  if (!store) throw errors.attachmentsDisallowed;
  const { attachmentFileSize, attachmentTotalSize, attachmentExpirySeconds } = visitor.limits;
  const expires = nowSeconds() + attachmentExpirySeconds;
  if (message.time > expires) throw errors.attachmentExpiryBeforeDelivery;
  const globalLimit = ctx.config.attachmentTotalSizeLimit;
  // Whether `bytes` more fit an upload holding `size`, against the upload's live usage (uploads running at once see each other).
  const fits = (bytes: number, size: number, usage: Usage): boolean =>
    size + bytes <= attachmentFileSize &&
    usage.owner + bytes <= attachmentTotalSize &&
    usage.total + bytes <= globalLimit &&
    visitor.bandwidthLeft(Date.now()) >= bytes;
  const announced = Number(req.headers.get('content-length') ?? NaN);
  // Bandwidth is spent as the bytes flow, as ntfy's bandwidth limiter.
  const allow: AllowWrite = (bytes, size, usage) => fits(bytes, size, usage) && visitor.transfer(bytes, Date.now());
  const upload = await store.create(message.id, owner, allow);
  try {
    if (!fits(Number.isNaN(announced) ? 1 : Math.max(1, announced), 0, upload.usage)) throw errors.entityTooLargeAttachment; // before a byte is written
    upload.write(head.bytes);
    if (head.truncated && rest) await rest.rest((chunk) => upload.write(chunk));
  } catch (err) {
    await upload.abort();
    throw err instanceof TooLarge ? errors.entityTooLargeAttachment : err;
  }
  const { type, ext } = await sniff(head.bytes, name);
  const fileName = name || `attachment${ext}`;
  const stored = await upload.commit({ type, name: fileName, expires });
  message.attachment = { name: fileName, type, size: stored.size, expires, url: `${ctx.config.baseUrl}/file/${message.id}${ext}` };
  message.message ??= `You received a file: ${fileName}`;
}

/**
 * The file's type: an APK by its name, as ntfy (its bytes are a ZIP's); else a format
 * its first bytes show; else the name's extension (`mime-types`); else text or bytes.
 */
async function sniff(head: Buffer, name: string): Promise<{ type: string; ext: string }> {
  const ext = extname(name).toLowerCase();
  if (ext === '.apk') return { type: 'application/vnd.android.package-archive', ext };
  const known = await fileTypeFromBuffer(head);
  if (known) return { type: known.mime, ext: `.${known.ext}` };
  const byName = ext === '' ? false : contentType(ext);
  if (byName) return { type: byName, ext };
  return isUtf8(head) ? { type: 'text/plain; charset=utf-8', ext: '.txt' } : { type: 'application/octet-stream', ext: '.bin' };
}
