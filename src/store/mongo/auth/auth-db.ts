import type { Db } from 'mongodb';
import { AlreadyExists, InUse, NotFound, Provisioned } from '../../auth-store.js';
import { ChangeLog } from './changes.js';
import { openCollections, type AuthCollections } from './collections.js';
import { PolledReadCache } from '../../polled-read-cache.js';
import { readFailure } from '../write-error.js';

/**
 * Access control's database, shared by the parts of the store: the collections, reads
 * remembered in one cache, and `change`, through which every change of the port runs, so
 * that when it resolves this instance has forgotten what it remembered and the other
 * instances have a newer change number to see.
 */
export class AuthDb {
  private readonly cache: PolledReadCache;

  private constructor(
    readonly collections: AuthCollections,
    private readonly changes: ChangeLog,
  ) {
    this.cache = new PolledReadCache(() => changes.newest(), readFailure);
  }

  static async open(db: Db): Promise<AuthDb> {
    const collections = await openCollections(db);
    const opened = new AuthDb(collections, new ChangeLog(collections.changes));
    try {
      // An instance that died between a change's writes and its announcement left the
      // others remembering what was before; whoever opens next announces for it.
      await opened.changes.announce();
    } catch (err) {
      opened.close();
      throw err;
    }
    return opened;
  }

  /** `whole`: a read of a whole table, kept apart from the request keys (PolledReadCache). */
  remembered<T>(key: string, read: () => Promise<T>, whole = false): Promise<T> {
    return this.cache.get(key, read, whole);
  }

  /**
   * Runs one change of the port. A refusal of the port (NotFound and the like) is thrown
   * before anything was written, so it announces nothing; any other failure may come after
   * some writes, so it is announced like a success.
   */
  async change<T>(body: () => Promise<T>): Promise<T> {
    let result: T;
    try {
      result = await body();
    } catch (err) {
      if (!isRefusal(err)) await this.changed();
      throw err;
    }
    await this.changed();
    return result;
  }

  close(): void {
    this.cache.close();
  }

  /** Forgets first: this instance's next read must see the change, even before it is announced. */
  private async changed(): Promise<void> {
    this.cache.clear();
    await this.changes.announce();
  }
}

function isRefusal(err: unknown): boolean {
  return err instanceof NotFound || err instanceof AlreadyExists || err instanceof InUse || err instanceof Provisioned;
}
