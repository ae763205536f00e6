import type { StoredFile } from './attachment-store.js';

/**
 * What is known of the committed attachments whose bytes live elsewhere (an S3 bucket):
 * their metadata and what they add up to, per owner and in all, kept in the deployment's
 * database so that every node sharing it reads the same files and sums. Contract:
 * - `add` makes a file visible at once to every instance on the same database; its id is new.
 * - `remove` and `expired` take a file away at once; each removed id is answered to one caller.
 * - The sums count exactly the files visible.
 * A synchronous implementation (SQLite) may answer without a promise.
 */
export interface FileIndex {
  add(file: StoredFile): Promise<void> | void;
  get(id: string): Promise<StoredFile | undefined> | StoredFile | undefined;
  /** False when `id` was not there. */
  remove(id: string): Promise<boolean> | boolean;
  /** Removes the files expired at `now` (Unix seconds) and answers their ids. */
  expired(now: number): Promise<string[]> | string[];
  usage(owner: string): Promise<number> | number;
  total(): Promise<number> | number;
  /** Which of `ids` are visible. */
  known(ids: readonly string[]): Promise<Set<string>> | Set<string>;
  /** Releases what the index holds of its own (not a pool it was given). */
  close(): Promise<void> | void;
}
