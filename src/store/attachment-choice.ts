import { ConfigError } from '../config/load.js';
import type { Config } from '../config/schema.js';
import type { AttachmentStore } from './attachment-store.js';
import type { FileIndex } from './file-index.js';

/**
 * The attachment store of a backend, from attachment-cache-dir: none when it is empty
 * (uploads refused); with an s3:// URL the bytes go to the bucket and their metadata to
 * `index`, the backend's database (so nodes sharing the database share the bucket);
 * anything else is the backend's own store (`own`). A bucket that does not answer to
 * the keys stops the start. The S3 client is imported only then: it costs a start without
 * it a quarter of a second.
 */
export async function openAttachments(config: Config, own: () => Promise<AttachmentStore>, index: () => Promise<FileIndex> | FileIndex): Promise<AttachmentStore | undefined> {
  if (!config.attachmentCacheDir) return undefined;
  const s3 = config.attachmentS3;
  if (!s3) return own();
  try {
    const { S3Attachments } = await import('./s3/s3-attachments.js');
    return await S3Attachments.open(s3, await index());
  } catch (err) {
    const where = `bucket ${s3.bucket} at ${s3.endpoint ?? `AWS (${s3.region})`}`;
    throw new ConfigError(`attachment-cache-dir: the ${where} cannot be used: ${err instanceof Error ? err.message : String(err)}`);
  }
}
