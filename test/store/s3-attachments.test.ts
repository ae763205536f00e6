import { after, before, describe } from 'node:test';
import { join } from 'node:path';
import { AttachmentIndex } from '../../src/store/files/attachment-index.js';
import { S3Attachments } from '../../src/store/s3/s3-attachments.js';
import { parseS3Url } from '../../src/store/s3/s3-url.js';
import { seaweedFsSkip, startSeaweedFs, type SeaweedFs } from '../support/seaweedfs.js';
import { tempDir } from '../support/server.js';
import { describeAttachmentStore } from './contracts/attachment-store.contract.js';

const skip = seaweedFsSkip();
let weed: SeaweedFs;
before(async () => {
  if (!skip) weed = await startSeaweedFs();
});
after(() => weed?.stop());

describe('S3 attachments (on SeaweedFS)', { skip }, () => {
  describeAttachmentStore('s3 + sqlite index', async (location) => {
    const { bucket, file } = location ? (JSON.parse(location) as { bucket: string; file: string }) : { bucket: await weed.bucket('sqlite'), file: join(tempDir(), 'index.db') };
    const instance = await S3Attachments.open(parseS3Url(weed.url(bucket, 'pre/fix')), new AttachmentIndex(file));
    return { instance, location: JSON.stringify({ bucket, file }), close: () => instance.close() };
  });
});
