import { isUtf8 } from 'node:buffer';
import { fileTypeFromBuffer } from 'file-type';
import { contentType } from 'mime-types';
import { extname } from 'node:path';
import { errors } from '../../model/errors.js';
import { nowSeconds, type Message } from '../../model/message.js';
import { TooLarge, type AllowWrite } from '../../store/attachment-store.js';
import { attachmentOwner } from '../client.js';
import type { UploadGuard } from '../guards/attachment-limits.js';
import type { Gate, Upload } from '../guards/guard.js';
import type { Body } from '../http/body.js';
import type { BodyStream } from '../http/body-stream.js';

/**
 * ntfy's handleBodyAsAttachment: streams the body into the attachment store under the
 * message's id, within the route's upload limits (`limits`, checked with the announced
 * length before a byte is written, then on every chunk: 41301 the moment one is crossed,
 * leaving no file), and makes the message's `attachment` of it. Counted among the
 * attachments of attachmentOwner.
 */
export async function storeUpload(gate: Gate, message: Message, name: string, head: Body, rest: BodyStream | undefined, limits: UploadGuard): Promise<void> {
  const { ctx, req } = gate;
  const store = ctx.attachments;
  if (!store) throw errors.attachmentsDisallowed;
  const upload: Upload = { gate, message, expires: nowSeconds() + gate.visitor.limits.attachmentExpirySeconds };
  limits.start(upload);
  const announced = Number(req.headers.get('content-length') ?? NaN);
  const allow: AllowWrite = (bytes, size, usage) => limits.fits(upload, bytes, size, usage) && limits.spend(upload, bytes);
  const file = await store.create(message.id, attachmentOwner(gate.user, gate.visitor), allow);
  try {
    if (!limits.fits(upload, Number.isNaN(announced) ? 1 : Math.max(1, announced), 0, file.usage)) throw errors.entityTooLargeAttachment; // before a byte is written
    file.write(head.bytes);
    if (head.truncated && rest) await rest.rest((chunk) => file.write(chunk));
  } catch (err) {
    await file.abort();
    throw err instanceof TooLarge ? errors.entityTooLargeAttachment : err;
  }
  const { type, ext } = await sniff(head.bytes, name);
  const fileName = name || `attachment${ext}`;
  const { expires } = upload;
  const stored = await file.commit({ type, name: fileName, expires });
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
