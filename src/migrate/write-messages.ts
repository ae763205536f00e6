import { createReadStream, existsSync } from 'node:fs';
import type { AttachmentStore } from '../store/attachment-store.js';
import type { CacheEntry, MessageCache } from '../store/message-cache.js';
import type { Progress } from './progress.js';
import type { Summary } from './summary.js';

/** A cached message to import, with the uploaded file that goes with it when the source kept one. */
export interface ImportedMessage {
  entry: CacheEntry;
  file: UploadedFile | undefined;
}

/** An uploaded file where the source keeps it, with what Tocsin's attachment store records of it. */
export interface UploadedFile {
  path: string;
  /** Whom it counts against in Tocsin (attachment limits): a visitor key, or a user's. */
  owner: string;
  type: string;
  name: string;
  /** Unix seconds; a file expired by now is not copied. */
  expires: number;
}

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
  /** The cache's messages, a batch (a transaction, a MongoDB log insert) at a time, in the source's commit order. */
  pages: Iterable<ImportedMessage[]>;
  progress: Progress;
}

const already = 'already there';

/**
 * Copies the cache, a batch at a time in the source's commit order, so imported messages
 * take Tocsin's commit positions in that order and `since=<old id>` continues where the
 * phone left off. In each batch the uploaded files go first, then the delivery jobs of
 * scheduled messages (as the publisher saves a job before its message), then the messages
 * in one transaction: an interrupt leaves whole batches, and the next run skips what is
 * there. Expired messages are left out: Tocsin would never serve them.
 */
export async function writeMessages(target: MessageTarget | undefined, o: MessageOptions, summary: Summary): Promise<void> {
  for (const page of o.pages) {
    summary.read('messages', page.length);
    const live = page.filter(({ entry }) => !entry.published || (entry.message.expires ?? 0) > o.now);
    summary.skipped('messages', 'expired', page.length - live.length);
    for (const { entry, file } of live) if (file) await copyFile(entry.message.id, file, target, o.now, summary);
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

/** The summary's name for uploaded files. */
export const fileKind = 'attachment files';

/** Copies the uploaded `file` of message `id` into Tocsin's attachment store, under the same id. */
async function copyFile(id: string, file: UploadedFile, target: MessageTarget | undefined, now: number, summary: Summary): Promise<void> {
  summary.read(fileKind);
  if (!existsSync(file.path)) return summary.skipped(fileKind, 'missing in attachment-cache-dir');
  if (file.expires <= now) return summary.skipped(fileKind, 'expired');
  if (!target) return summary.added(fileKind);
  const store = target.attachments;
  if (!store) return summary.skipped(fileKind, 'not kept: the Tocsin config has no attachment-cache-dir');
  if (await store.stat(id)) return summary.skipped(fileKind, already);
  // Limits are the source server's business here: the file was accepted there.
  const upload = await store.create(id, file.owner, () => true);
  try {
    for await (const chunk of createReadStream(file.path)) upload.write(chunk as Buffer);
  } catch (err) {
    await upload.abort();
    throw err;
  }
  await upload.commit({ type: file.type, name: file.name, expires: file.expires });
  summary.added(fileKind);
}
