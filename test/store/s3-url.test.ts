import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { ConfigError, loadConfig } from '../../src/config/load.js';
import { parseS3Url, S3UrlError, type S3Location } from '../../src/store/s3/s3-url.js';

const keysAndBucket = 's3://AKIA:c2VjcmV0@my-bucket';

/** The message parseS3Url refuses `url` with. */
function refusal(url: string): string {
  try {
    parseS3Url(url);
  } catch (err) {
    assert.ok(err instanceof S3UrlError, String(err));
    return err.message;
  }
  return 'accepted';
}

describe('s3:// URLs (attachment-cache-dir)', () => {
  it('AWS: virtual-host style, keys percent-decoded, no prefix', () => {
    assert.deepEqual(parseS3Url('s3://AKIAXYZ:abc%2Fdef%2Bghi@my-bucket?region=eu-central-1'), {
      accessKeyId: 'AKIAXYZ', secretAccessKey: 'abc/def+ghi', bucket: 'my-bucket', prefix: '', region: 'eu-central-1', endpoint: undefined, forcePathStyle: false,
    } satisfies S3Location);
  });

  it('an endpoint means path style, HTTPS unless http:// is given; the prefix loses its outer slashes', () => {
    const cases: [string, string | undefined, string][] = [
      [`${keysAndBucket}/attachments?region=us-east-1&endpoint=minio.local:9000`, 'https://minio.local:9000', 'attachments'],
      [`${keysAndBucket}/a/b/?region=us-east-1&endpoint=https://s3.example.com`, 'https://s3.example.com', 'a/b'],
      [`${keysAndBucket}?region=auto&endpoint=http%3A%2F%2F127.0.0.1%3A8333`, 'http://127.0.0.1:8333', ''],
      [`${keysAndBucket}?region=us-east-1&endpoint=http://127.0.0.1:8333&disable_http2=true`, 'http://127.0.0.1:8333', ''],
    ];
    for (const [url, endpoint, prefix] of cases) {
      const parsed = parseS3Url(url);
      assert.deepEqual([parsed.endpoint, parsed.forcePathStyle, parsed.prefix], [endpoint, true, prefix], url);
    }
  });

  it('each malformed part is named, and the keys never appear in the message', () => {
    const cases: [string, string][] = [
      ['s3://my-bucket?region=us-east-1', 'needs both keys, as s3://ACCESS_KEY:SECRET_KEY@BUCKET'],
      ['s3://AKIA@my-bucket?region=us-east-1', 'needs both keys, as s3://ACCESS_KEY:SECRET_KEY@BUCKET'],
      ['s3://:secretvalue@my-bucket?region=us-east-1', 'needs both keys, as s3://ACCESS_KEY:SECRET_KEY@BUCKET'],
      [keysAndBucket, 'needs region=REGION'],
      [`${keysAndBucket}?region=`, 'needs region=REGION'],
      [`${keysAndBucket}?region=us east`, 'has region "us east", which is not a region name'],
      ['s3://AKIA:c2VjcmV0@My_Bucket?region=us-east-1', 'has bucket "My_Bucket", which is not a valid S3 bucket name'],
      ['s3://AKIA:c2VjcmV0@ab?region=us-east-1', 'has bucket "ab", which is not a valid S3 bucket name'],
      ['s3://AKIA:c2VjcmV0@a..b?region=us-east-1', 'has bucket "a..b", which is not a valid S3 bucket name'],
      ['s3://AKIA:c2VjcmV0@my-bucket:9000?region=us-east-1', 'names a port after the bucket; give the store\'s address as endpoint='],
      [`${keysAndBucket}/a//b?region=us-east-1`, 'has a prefix with an empty, . or .. segment'],
      [`${keysAndBucket}/a%2F%2Fb?region=us-east-1`, 'has a prefix with an empty, . or .. segment'],
      [`${keysAndBucket}?region=us-east-1&regoin=x`, 'has unknown parameter "regoin" (known: region, endpoint, disable_http2)'],
      [`${keysAndBucket}?region=us-east-1&region=eu-west-1`, 'has parameter region twice'],
      [`${keysAndBucket}?region=us-east-1&endpoint=`, 'has an empty endpoint'],
      [`${keysAndBucket}?region=us-east-1&endpoint=ftp://x`, 'has endpoint "ftp://x", which is not [http(s)://]host[:port]'],
      [`${keysAndBucket}?region=us-east-1&endpoint=host/path`, 'has endpoint "host/path", which is not [http(s)://]host[:port]'],
      [`${keysAndBucket}?region=us-east-1&endpoint=u:p@host`, 'has endpoint "u:p@host", which is not [http(s)://]host[:port]'],
      [`${keysAndBucket}?region=us-east-1&disable_http2=yes`, 'has disable_http2 other than true or false'],
      [`${keysAndBucket}?region=us-east-1#x`, 'has a #fragment'],
      ['s3://AKIA:%E0%A4%A@my-bucket?region=us-east-1', 'has a malformed percent-encoding in the secret key'],
      ['s3://AKIA:c2VjcmV0@my bucket?region=us-east-1', 'is not a valid URL (percent-encode reserved characters such as / or @ in the keys)'],
    ];
    for (const [url, message] of cases) {
      const got = refusal(url);
      assert.equal(got, message, url);
      assert.ok(!got.includes('c2VjcmV0') && !got.includes('secretvalue'), `no key in: ${got}`);
    }
  });

  it('property: a URL built from valid parts parses back to them', () => {
    const segment = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/);
    const location = fc.record({
      accessKeyId: fc.string({ minLength: 1, maxLength: 40 }),
      secretAccessKey: fc.string({ minLength: 1, maxLength: 60 }),
      bucket: fc.stringMatching(/^[a-z0-9][a-z0-9-]{1,20}[a-z0-9]$/),
      prefix: fc.array(segment, { maxLength: 3 }).map((parts) => parts.join('/')),
      region: fc.stringMatching(/^[a-z]{2}-[a-z]{2,8}-[1-9]$/),
      endpoint: fc.option(fc.tuple(fc.constantFrom('http', 'https'), fc.domain(), fc.integer({ min: 1, max: 65535 })), { nil: undefined }),
    });
    fc.assert(
      fc.property(location, ({ endpoint, ...l }) => {
        const origin = endpoint && new URL(`${endpoint[0]}://${endpoint[1]}:${endpoint[2]}`).origin;
        const query = `region=${l.region}${origin ? `&endpoint=${encodeURIComponent(origin)}` : ''}`;
        const url = `s3://${encodeURIComponent(l.accessKeyId)}:${encodeURIComponent(l.secretAccessKey)}@${l.bucket}${l.prefix ? `/${l.prefix}` : ''}?${query}`;
        assert.deepEqual(parseS3Url(url), { ...l, endpoint: origin, forcePathStyle: origin !== undefined });
      }),
    );
  });

  it('property: any text after s3:// is parsed or refused with an S3UrlError, never another error', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.webUrl({ withQueryParameters: true, withFragments: true }).map((u) => u.replace(/^https?:/, ''))), (rest) => {
        try {
          parseS3Url(`s3://${rest.replace(/^\/\//, '')}`);
        } catch (err) {
          assert.ok(err instanceof S3UrlError, String(err));
        }
      }),
    );
  });

  it('config: an s3:// attachment-cache-dir is the bucket, a bad one stops loading naming the key, anything else stays a directory', () => {
    const url = 's3://AKIA:c2VjcmV0@my-bucket/tocsin?region=us-east-1&endpoint=http://127.0.0.1:8333';
    const { config } = loadConfig({ flags: { 'attachment-cache-dir': url, 'base-url': 'https://ntfy.example' } });
    assert.deepEqual([config.attachmentCacheDir, config.attachmentS3?.bucket, config.attachmentS3?.prefix], [url, 'my-bucket', 'tocsin']);
    assert.throws(
      () => loadConfig({ env: { NTFY_ATTACHMENT_CACHE_DIR: 's3://AKIA:c2VjcmV0@my-bucket', NTFY_BASE_URL: 'https://ntfy.example' } }),
      (err: Error) => err instanceof ConfigError && err.message === 'attachment-cache-dir: the s3:// URL needs region=REGION',
    );
    assert.equal(loadConfig({ flags: { 'attachment-cache-dir': '/var/cache/ntfy/s3:files', 'base-url': 'https://ntfy.example' } }).config.attachmentS3, undefined);
  });
});
