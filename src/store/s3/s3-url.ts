/**
 * Where S3 attachments go, as ntfy 2.20's `attachment-cache-dir` names it:
 * `s3://ACCESS_KEY:SECRET_KEY@BUCKET[/PREFIX]?region=REGION[&endpoint=ENDPOINT][&disable_http2=true]`.
 */
export interface S3Location {
  accessKeyId: string;
  secretAccessKey: string;
  bucket: string;
  /** Keys start with `prefix/` when not empty; no leading or trailing slash. */
  prefix: string;
  region: string;
  /** An S3-compatible store's URL (with its scheme); undefined for AWS itself. */
  endpoint: string | undefined;
  /** Path-style addressing (`endpoint/bucket/key`): any store of `endpoint`; AWS uses virtual hosts. */
  forcePathStyle: boolean;
}

/** A malformed S3 URL; the message names what is wrong and never holds the keys. */
export class S3UrlError extends Error {}

const scheme = 's3://';
/** S3's bucket naming rules (3–63 of lowercase letters, digits, dots, hyphens; a letter or digit at each end). */
const bucketPattern = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
const regionPattern = /^[a-z0-9-]{1,64}$/;
const knownParams = new Set(['region', 'endpoint', 'disable_http2']);

/** True when `value` asks for S3 rather than naming a local directory. */
export function isS3Url(value: string): boolean {
  return value.startsWith(scheme);
}

/** Parses an `s3://` URL strictly; throws S3UrlError naming the first thing wrong. */
export function parseS3Url(value: string): S3Location {
  if (!isS3Url(value)) throw new S3UrlError('does not start with s3://');
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new S3UrlError('is not a valid URL (percent-encode reserved characters such as / or @ in the keys)');
  }
  const accessKeyId = decode(url.username, 'the access key');
  const secretAccessKey = decode(url.password, 'the secret key');
  if (accessKeyId === '' || secretAccessKey === '') throw new S3UrlError('needs both keys, as s3://ACCESS_KEY:SECRET_KEY@BUCKET');
  if (url.port !== '') throw new S3UrlError('names a port after the bucket; give the store\'s address as endpoint=');
  const bucket = url.hostname;
  if (!bucketPattern.test(bucket) || bucket.includes('..')) throw new S3UrlError(`has bucket ${JSON.stringify(bucket)}, which is not a valid S3 bucket name`);
  if (url.hash !== '') throw new S3UrlError('has a #fragment');
  const prefix = decode(url.pathname, 'the prefix').replace(/^\/+|\/+$/g, '');
  if (prefix !== '' && prefix.split('/').some((part) => part === '' || part === '.' || part === '..')) throw new S3UrlError('has a prefix with an empty, . or .. segment');
  for (const name of url.searchParams.keys()) {
    if (!knownParams.has(name)) throw new S3UrlError(`has unknown parameter ${JSON.stringify(name)} (known: region, endpoint, disable_http2)`);
    if (url.searchParams.getAll(name).length > 1) throw new S3UrlError(`has parameter ${name} twice`);
  }
  const region = url.searchParams.get('region') ?? '';
  if (!regionPattern.test(region)) throw new S3UrlError(region === '' ? 'needs region=REGION' : `has region ${JSON.stringify(region)}, which is not a region name`);
  const http2 = url.searchParams.get('disable_http2');
  if (http2 !== null && http2 !== 'true' && http2 !== 'false') throw new S3UrlError('has disable_http2 other than true or false');
  const endpoint = endpointOf(url.searchParams.get('endpoint'));
  return { accessKeyId, secretAccessKey, bucket, prefix, region, endpoint, forcePathStyle: endpoint !== undefined };
}

/** The endpoint with its scheme: HTTPS unless `http://` is given. */
function endpointOf(value: string | null): string | undefined {
  if (value === null) return undefined;
  if (value === '') throw new S3UrlError('has an empty endpoint');
  const withScheme = /^https?:\/\//i.test(value) ? value : `https://${value}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw notHostPort(value);
  }
  const extra = url.username !== '' || url.password !== '' || url.search !== '' || url.hash !== '' || (url.pathname !== '/' && url.pathname !== '');
  if (extra || url.hostname === '') throw notHostPort(value);
  return url.origin;
}

function notHostPort(endpoint: string): S3UrlError {
  return new S3UrlError(`has endpoint ${JSON.stringify(endpoint)}, which is not [http(s)://]host[:port]`);
}

function decode(part: string, what: string): string {
  try {
    return decodeURIComponent(part);
  } catch {
    throw new S3UrlError(`has a malformed percent-encoding in ${what}`);
  }
}
