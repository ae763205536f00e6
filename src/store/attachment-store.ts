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

/** An upload in progress: bytes go to a part file, which only `commit` makes visible. */
export interface FileUpload {
  /** Bytes written so far. */
  readonly size: number;
  /**
   * Takes the chunk at once — it may be uWS's memory, valid only during the call — so the
   * network, not a queue, holds back a fast client. Throws `TooLarge` when the upload's
   * `allow` refuses it (the part file is gone then).
   */
  write(chunk: Uint8Array): void;
  commit(meta: Omit<StoredFile, 'id' | 'size' | 'owner'>): Promise<StoredFile>;
  /** Drops the part file. */
  abort(): Promise<void>;
}

/** Asked before each write: may `bytes` more be written to an upload that holds `size`? */
export type AllowWrite = (bytes: number, size: number) => boolean;

/**
 * Uploaded attachments (ntfy's attachment-cache-dir): files with their metadata, and what
 * they add up to, in total and per owner, so limits are checked without touching disk.
 * Contract, for every implementation:
 * - A file is visible (`stat`, `read`, `expire`) only once its upload committed, and then
 *   whole; an upload cut off or aborted leaves nothing, not even after a crash.
 * - Committed files and their metadata survive a restart; uploads in progress do not.
 * - `usage` and `total` answer at once (no I/O): the limits check them on every chunk.
 * - `read` is only asked for a file `stat` knows; `remove` of an unknown id does nothing.
 */
export interface AttachmentStore {
  /**
   * Starts file `id` of `owner`. Its bytes count in `usage(owner)` and `total` as they are
   * written, so uploads running at once see each other against the limits `allow` checks.
   */
  create(id: string, owner: string, allow: AllowWrite): FileUpload;
  stat(id: string): StoredFile | undefined;
  /** The bytes of a stored file, `start` to `end` inclusive when given. */
  read(id: string, range?: { start: number; end: number }): Readable;
  remove(id: string): Promise<void>;
  /** Removes every file expired at `now` (Unix seconds); answers their ids. */
  expire(now: number): Promise<string[]>;
  /** Bytes stored and being uploaded for `owner`. */
  usage(owner: string): number;
  /** Bytes stored and being uploaded in all. */
  readonly total: number;
}

export class TooLarge extends Error {}
