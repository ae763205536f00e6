import { Readable } from 'node:stream';
import {
  AbortMultipartUploadCommand,
  DeleteObjectsCommand,
  GetObjectCommand,
  HeadBucketCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  S3ServiceException,
} from '@aws-sdk/client-s3';
import { Upload } from '@aws-sdk/lib-storage';
import { AttachmentsUnavailableError } from '../attachment-store.js';
import type { S3Location } from './s3-url.js';

/** S3's most keys per DeleteObjects request, and per listing page. */
export const batchKeys = 1000;
/** Parts of a multipart upload: S3's smallest (but the last); smaller files go in one PUT. */
const partBytes = 5 * 1024 * 1024;

/** Connections to the store at once, each a download streaming or another request. */
const maxSockets = 256;

/** An object as a listing shows it. */
export interface ListedObject {
  key: string;
  size: number;
  modified: Date;
}

/**
 * The bucket (and prefix) of an S3Location, through the official client: what the S3
 * attachment store needs of it, every failure turned into AttachmentsUnavailableError.
 * Requests are bounded in time, so a store that stopped answering fails them rather than
 * holding uploads and downloads open.
 */
export class S3Bucket {
  private readonly client: S3Client;

  constructor(private readonly location: S3Location) {
    // Tocsin runs on Node 20 (its uWebSockets.js build); package.json pins SDK versions that
    // support it, so the SDK's notice that later ones will not is no news to an operator.
    process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
    this.client = new S3Client({
      region: location.region,
      endpoint: location.endpoint,
      forcePathStyle: location.forcePathStyle,
      credentials: { accessKeyId: location.accessKeyId, secretAccessKey: location.secretAccessKey },
      // Checksums only where S3 requires them: S3-compatible stores differ in which of the
      // newer checksum headers (and aws-chunked trailers) they accept.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 2,
      requestHandler: {
        connectionTimeout: 5_000,
        // Idle, not total: a download streams for as long as its client reads, but a store
        // (or a client) that moves no byte for 30 s ends the request and frees its socket.
        socketTimeout: 30_000,
        // Each download holds a socket while it streams: room for many at once, beyond which
        // requests wait for a socket rather than open without bound.
        httpAgent: { keepAlive: true, maxSockets },
        httpsAgent: { keepAlive: true, maxSockets },
      },
    });
  }

  /** The object key of attachment `id`: `PREFIX/id`, or `id` without a prefix (as ntfy). */
  keyOf(id: string): string {
    return this.location.prefix === '' ? id : `${this.location.prefix}/${id}`;
  }

  /** The attachment id of a listed key; undefined for a key outside the prefix. */
  idOf(key: string): string | undefined {
    const start = this.location.prefix === '' ? '' : `${this.location.prefix}/`;
    return key.startsWith(start) ? key.slice(start.length) : undefined;
  }

  /** Fails unless the bucket answers to the keys. */
  async check(): Promise<void> {
    await this.call(() => this.client.send(new HeadBucketCommand({ Bucket: this.location.bucket })));
  }

  /**
   * Streams `body` (`size` bytes) to `key`: one PUT, streamed, up to 5 MB; above, a
   * multipart upload of 5 MB parts, one part buffered at a time (lib-storage).
   */
  async put(key: string, body: Readable, size: number, type: string): Promise<void> {
    if (size <= partBytes) {
      await this.call(() => this.client.send(new PutObjectCommand({ Bucket: this.location.bucket, Key: key, Body: body, ContentLength: size, ContentType: type })));
      return;
    }
    const upload = new Upload({
      client: this.client,
      params: { Bucket: this.location.bucket, Key: key, Body: body, ContentLength: size, ContentType: type },
      partSize: partBytes,
      queueSize: 1, // one part in memory per upload
      leavePartsOnError: false,
    });
    await this.call(() => upload.done());
  }

  /** The object's bytes, `start` to `end` inclusive when given; resolves once the store answered. */
  async get(key: string, range?: { start: number; end: number }): Promise<Readable> {
    if (range && range.end < range.start) return Readable.from([]);
    const answer = await this.call(() =>
      this.client.send(new GetObjectCommand({ Bucket: this.location.bucket, Key: key, Range: range && `bytes=${range.start}-${range.end}` })),
    );
    if (!(answer.Body instanceof Readable)) throw new AttachmentsUnavailableError(`no body for ${key}`);
    return answer.Body;
  }

  /** Deletes `keys`, `batchKeys` per request; a key that is not there is no error. */
  async delete(keys: readonly string[]): Promise<void> {
    for (let at = 0; at < keys.length; at += batchKeys) {
      const batch = keys.slice(at, at + batchKeys);
      const answer = await this.call(() =>
        this.client.send(new DeleteObjectsCommand({ Bucket: this.location.bucket, Delete: { Objects: batch.map((Key) => ({ Key })), Quiet: true } })),
      );
      const failed = answer.Errors?.[0];
      if (failed) throw new AttachmentsUnavailableError(`deleting ${failed.Key ?? '?'}: ${failed.Code ?? ''} ${failed.Message ?? ''}`);
    }
  }

  /** The objects under the prefix, a page (up to `batchKeys`) at a time. */
  async *list(): AsyncGenerator<ListedObject[]> {
    let token: string | undefined;
    do {
      const page = await this.call(() =>
        this.client.send(new ListObjectsV2Command({ Bucket: this.location.bucket, Prefix: this.listPrefix(), ContinuationToken: token, MaxKeys: batchKeys })),
      );
      yield (page.Contents ?? []).flatMap(({ Key, Size, LastModified }) => (Key === undefined ? [] : [{ key: Key, size: Size ?? 0, modified: LastModified ?? new Date(0) }]));
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token !== undefined);
  }

  /** Aborts the multipart uploads under the prefix begun before `before` (a crash's), so their parts stop costing storage. */
  async abortUploadsBefore(before: Date): Promise<number> {
    let [aborted, keyMarker, idMarker] = [0, undefined as string | undefined, undefined as string | undefined];
    do {
      const page = await this.call(() =>
        this.client.send(new ListMultipartUploadsCommand({ Bucket: this.location.bucket, Prefix: this.listPrefix(), KeyMarker: keyMarker, UploadIdMarker: idMarker })),
      );
      for (const { Key, UploadId, Initiated } of page.Uploads ?? []) {
        if (Key === undefined || UploadId === undefined || !Initiated || Initiated >= before) continue;
        await this.call(() => this.client.send(new AbortMultipartUploadCommand({ Bucket: this.location.bucket, Key, UploadId })));
        aborted++;
      }
      [keyMarker, idMarker] = page.IsTruncated ? [page.NextKeyMarker, page.NextUploadIdMarker] : [undefined, undefined];
    } while (keyMarker !== undefined);
    return aborted;
  }

  close(): void {
    this.client.destroy();
  }

  private listPrefix(): string | undefined {
    return this.location.prefix === '' ? undefined : `${this.location.prefix}/`;
  }

  private async call<T>(request: () => Promise<T>): Promise<T> {
    try {
      return await request();
    } catch (err) {
      throw err instanceof AttachmentsUnavailableError ? err : new AttachmentsUnavailableError(described(err));
    }
  }
}

/**
 * The client's error with the HTTP status it came with: an answer without a body (a
 * HEAD's 404 or 403) is otherwise only "UnknownError".
 */
function described(err: unknown): unknown {
  if (!(err instanceof S3ServiceException)) return err;
  const status = `HTTP ${err.$metadata.httpStatusCode ?? '?'}`;
  return new Error(err.message === 'UnknownError' ? status : `${err.name}: ${err.message} (${status})`, { cause: err });
}
