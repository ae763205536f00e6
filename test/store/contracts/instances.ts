import { after } from 'node:test';

/** One instance of a store, as a backend's factory opens it for a contract suite. */
export interface Opened<T> {
  instance: T;
  /** Where its database is, for opening a second instance on it. */
  location: string;
  close(): Promise<void>;
}

/**
 * A backend's factory for a contract suite. Without `location` it opens a fresh, empty
 * database; with the location of an instance opened before, another instance on that same
 * database, as a second node (or the CLI beside the server) would.
 */
export type Open<T> = (location?: string) => Promise<Opened<T>>;

export interface SuiteOptions {
  /**
   * Whether two instances can share a database. SQLite in memory cannot: its cases of
   * two instances are skipped rather than run against two separate databases.
   */
  shared: boolean;
}

/**
 * Wraps a factory so every instance it opens and the test did not close is closed when
 * the calling suite ends (a port's `close` is called once); call at the top level of a
 * describe.
 */
export function closedAfter<T>(open: Open<T>): Open<T> {
  const unclosed = new Set<Opened<T>>();
  after(() => Promise.all([...unclosed].map((o) => o.close())));
  return async (location) => {
    const o = await open(location);
    unclosed.add(o);
    const close = (): Promise<void> => {
      unclosed.delete(o);
      return o.close();
    };
    return { ...o, close };
  };
}

/** Two instances on one fresh database. */
export async function pair<T>(open: Open<T>): Promise<[T, T]> {
  const first = await open();
  const second = await open(first.location);
  return [first.instance, second.instance];
}

/** The `it` option that skips a case of two instances when they cannot share a database. */
export function needsSharing(options: SuiteOptions): { skip: string | false } {
  return { skip: !options.shared && 'instances of this backend cannot share a database' };
}
