import type { Readable } from 'node:stream';

/** A stored upload, as the download route and the limits need it. */
export interface StoredFile {
  id: string;
  size: number;
  /** Mime type, sniffed by the uploader. */
  type: string;
  /** The attachment's name, offered to downloaders (Content-Disposition). */
  name: string;
  /** The visitor it counts against (visitor-attachment-total-size-limit, bandwidth). */
  owner: string;
  /** Unix seconds after which housekeeping removes it. */
  expires: number;
}

/**
 * What an upload in progress counts against, known without I/O: the committed bytes the
 * store held when the upload started, plus what this instance's uploads wrote and
 * committed since (this one's bytes included). Another instance's uploads count once they
 * committed, for uploads that start after.
 */
export interface Usage {
  /** Bytes of the upload's owner. */
  owner: number;
  /** Bytes of every owner. */
  total: number;
}

/** An upload in progress: bytes go to a part, which only `commit` makes visible. */
export interface FileUpload {
  /** Bytes written so far. */
  readonly size: number;
  /** What the upload counts against now, without I/O (see Usage). */
  readonly usage: Usage;
  /**
   * Takes the chunk at once — it may be uWS's memory, valid only during the call — so the
   * network, not a queue, holds back a fast client. Throws `TooLarge` when the upload's
   * `allow` refuses it (the part is gone then).
   */
  write(chunk: Uint8Array): void;
  commit(meta: Omit<StoredFile, 'id' | 'size' | 'owner'>): Promise<StoredFile>;
  /** Drops the part. */
  abort(): Promise<void>;
}

/** Asked before each write: may `bytes` more be written to an upload that holds `size`, given `usage`? */
export type AllowWrite = (bytes: number, size: number, usage: Usage) => boolean;

/**
 * Uploaded attachments (ntfy's attachment-cache-dir): files with their metadata, and what
 * they add up to, in total and per owner. Contract, for every implementation:
 * - A file is visible (`stat`, `read`, `usage`, `total`, `expire`) only once its upload
 *   committed, and then whole; an upload cut off or aborted leaves nothing, not even after
 *   a crash.
 * - Committed files and their metadata survive a restart; uploads in progress do not.
 * - Several instances may share one backend (the nodes of a deployment): each sees what
 *   the others committed or removed as soon as their call resolved. Uploads in progress
 *   count in the `usage` and `total` of the instance running them, not in the others'.
 * - `usage` and `total` ask the store. An upload checks its limits on every chunk without
 *   I/O instead, against `FileUpload.usage`, so uploads running at once on one instance
 *   see each other's bytes as they arrive.
 * - `read` is only asked for a file `stat` knows; `remove` of an unknown id does nothing.
 * - `close` is called once, when nothing else is called any more.
 */
export interface AttachmentStore {
  /** Starts file `id` of `owner`; reads the committed usage its limits start from. */
  create(id: string, owner: string, allow: AllowWrite): Promise<FileUpload>;
  stat(id: string): Promise<StoredFile | undefined>;
  /**
   * The bytes of a stored file, `start` to `end` inclusive when given. Resolves once the
   * bytes can be read, so storage that cannot be reached fails (AttachmentsUnavailableError)
   * before a response starts.
   */
  read(id: string, range?: { start: number; end: number }): Promise<Readable>;
  remove(id: string): Promise<void>;
  /** Removes every file expired at `now` (Unix seconds); answers their ids. */
  expire(now: number): Promise<string[]>;
  /**
   * For a store whose bytes can be left behind where its own bookkeeping does not see
   * them (an S3 bucket): clears them, at the store's own cadence (undefined when not due).
   * Called by the shared housekeeping, so by one node at a time.
   */
  sweep?(nowMs: number): Promise<SweepReport | undefined>;
  /** Bytes stored for `owner`, and being uploaded for it by this instance. */
  usage(owner: string): Promise<number>;
  /** Bytes stored, and being uploaded by this instance, in all. */
  total(): Promise<number>;
  close(): Promise<void>;
}

/** What a sweep found: the objects the store knows and their bytes, and what it removed. */
export interface SweepReport {
  objects: number;
  bytes: number;
  orphans: number;
  abortedUploads: number;
}

export class TooLarge extends Error {}

/**
 * The storage the bytes live in could not be reached or refused the request (an object
 * store down, wrong keys, no answer in time): nothing was stored or read, the request is
 * answered 503 and may be tried again.
 */
export class AttachmentsUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`attachment storage unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'AttachmentsUnavailableError';
  }
}
