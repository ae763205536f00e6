import { createReadStream, existsSync } from 'node:fs';
import { join } from 'node:path';
import type { Attachment } from '../../model/message.js';
import type { AttachmentStore } from '../../store/attachment-store.js';
import type { MessageCache } from '../../store/message-cache.js';
import type { Progress } from '../progress.js';
import type { Summary } from '../summary.js';
import type { NtfyMessage } from './cache-reader.js';

/** Where the messages go; absent in a dry run. */
export interface MessageTarget {
  cache: MessageCache;
  /** Undefined when the Tocsin config keeps no attachments. */
  attachments: AttachmentStore | undefined;
  /** Saves the delivery job of a scheduled message, unless it has one. */
  schedule(id: string, at: Date): Promise<void>;
}

export interface MessageOptions {
  now: number;
  /** The cache's messages, a batch (a transaction, a MongoDB log insert) at a time, in ntfy's order. */
  pages: Iterable<NtfyMessage[]>;
  /** ntfy's attachment-cache-dir, whose files are named by message id. */
  attachmentDir: string | undefined;
  /** Whom an uploaded file counts against in Tocsin (attachment limits). */
  ownerOf(m: NtfyMessage): string;
  progress: Progress;
}

const already = 'already there';

/**
 * Copies the cache, a batch at a time in ntfy's commit order, so imported messages take
 * Tocsin's commit positions in that order and `since=<ntfy id>` continues where the phone
 * left off. In each batch the uploaded files go first, then the delivery jobs of
 * scheduled messages (as the publisher saves a job before its message), then the messages
 * in one transaction: an interrupt leaves whole batches, and the next run skips what is
 * there. Expired messages are left out: Tocsin would never serve them.
 */
export async function writeMessages(target: MessageTarget | undefined, o: MessageOptions, summary: Summary): Promise<void> {
  for (const page of o.pages) {
    summary.read('messages', page.length);
    const live = page.filter(({ entry }) => !entry.published || (entry.message.expires ?? 0) > o.now);
    summary.skipped('messages', 'expired', page.length - live.length);
    for (const m of live) if (m.entry.message.attachment && m.fileKept && o.attachmentDir) await copyFile(m, target, o, summary);
    if (!target) {
      summary.added('messages', live.length);
    } else {
      for (const { entry } of live) if (!entry.published) await target.schedule(entry.message.id, new Date(entry.message.time * 1000));
      const added = await target.cache.import(live.map(({ entry }) => entry));
      summary.added('messages', added);
      summary.skipped('messages', already, live.length - added);
    }
    o.progress.advance(page.length);
  }
  o.progress.finish();
}

/** Copies the uploaded file of `m` into Tocsin's attachment store, under the same id. */
async function copyFile(m: NtfyMessage, target: MessageTarget | undefined, o: MessageOptions, summary: Summary): Promise<void> {
  const { id, attachment } = m.entry.message as { id: string; attachment: Attachment };
  const kind = 'attachment files';
  summary.read(kind);
  const path = join(o.attachmentDir as string, id);
  if (!existsSync(path)) return summary.skipped(kind, 'missing in attachment-cache-dir');
  if ((attachment.expires ?? 0) <= o.now) return summary.skipped(kind, 'expired');
  if (!target) return summary.added(kind);
  const store = target.attachments;
  if (!store) return summary.skipped(kind, 'not kept: the Tocsin config has no attachment-cache-dir');
  if (await store.stat(id)) return summary.skipped(kind, already);
  // Limits are ntfy's business here: the file was accepted there.
  const upload = await store.create(id, o.ownerOf(m), () => true);
  try {
    for await (const chunk of createReadStream(path)) upload.write(chunk as Buffer);
  } catch (err) {
    await upload.abort();
    throw err;
  }
  await upload.commit({ type: attachment.type ?? 'application/octet-stream', name: attachment.name, expires: attachment.expires ?? 0 });
  summary.added(kind);
}
