import type { SweepReport } from '../attachment-store.js';
import type { FileIndex } from '../file-index.js';
import type { S3Bucket } from './s3-bucket.js';

/** What an attachment's object is named (its message id), as ntfy 2.20 checks it; no other key is touched. */
const attachmentId = /^[-_A-Za-z0-9]{12}$/;

/**
 * ntfy 2.20's sync loop over the bucket's prefix, a listing page (1,000 keys) at a time,
 * so memory stays bounded whatever the bucket holds: objects named like an attachment
 * that the index does not know, last written before `before`, are orphans (an upload
 * that died between its object and its index entry, an expired file whose delete
 * failed) and are deleted; multipart uploads begun before `before` are aborted. Keys
 * that are no attachment id (`attachmentId`) are left alone. The report sums the objects the index knows:
 * what ntfy recomputes as its total, which Tocsin's index keeps exact all along.
 */
export async function sweepBucket(bucket: S3Bucket, index: FileIndex, before: Date): Promise<SweepReport> {
  const report: SweepReport = { objects: 0, bytes: 0, orphans: 0, abortedUploads: 0 };
  for await (const page of bucket.list()) {
    const named = page.flatMap((object) => {
      const id = bucket.idOf(object.key);
      return id !== undefined && attachmentId.test(id) ? [{ ...object, id }] : [];
    });
    const known = await index.known(named.map((o) => o.id));
    const orphans = named.filter((o) => !known.has(o.id) && o.modified < before);
    await bucket.delete(orphans.map((o) => o.key));
    for (const object of named.filter((o) => known.has(o.id))) {
      report.objects++;
      report.bytes += object.size;
    }
    report.orphans += orphans.length;
  }
  report.abortedUploads = await bucket.abortUploadsBefore(before);
  return report;
}
