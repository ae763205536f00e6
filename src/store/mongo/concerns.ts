import {
  MongoClient, ReadConcern, ReadPreference, WriteConcern,
  type Collection, type CollectionOptions, type Db, type Document, type MongoClientOptions,
} from 'mongodb';
// Before any client writes: a command written to a connection the server just closed fails instead of waiting for good.
import './closed-connection.js';

/**
 * What MongoDB must have done before Tocsin answers a client, on a replica set as on one
 * server. Every collection handle of the MongoDB store is made here (`collection`), and
 * the client's options too (`clientOptions`), so no write or read escapes them:
 *
 * - Writes are acknowledged by a majority of the set and journaled ({ w: 'majority', j: true }):
 *   an acknowledged publish (job claim, auth change, attachment, ledger report) survives a
 *   failover. A URL asking for more keeps it (see `writeConcernOf`); less is raised.
 * - Reads at `majority`: a read never sees a write a failover may roll back, so a position
 *   read (chain head, tail, replay, id lookup) never builds on one. `linearizable` in the
 *   URL is kept. The reads that decide a position or deliver a message go to the primary
 *   whatever the URL's readPreference (`positionReads`): a secondary's chain head lags, and
 *   an append built on it would loop on duplicate keys.
 * - Retryable writes stay on: a write cut by a failover is retried once on the new primary.
 * - A stuck primary is bounded: wtimeoutMS (replication), socketTimeoutMS (an answer; the
 *   driver's timeoutMS is not public in mongodb 6.22), waitQueueTimeoutMS (a pooled
 *   connection). A commit then fails, and the publish answers 503 (50301), instead of
 *   holding every later commit behind it. Each is the URL's when it sets one. A command
 *   written to a connection the server has just closed fails with it (closed-connection.ts),
 *   where the driver would wait for good.
 */
export const timeoutDefaults = {
  /** Replication of a write to a majority: a healthy set takes milliseconds. */
  wtimeoutMS: 5_000,
  /** Longer than a replay's slowest fetch. */
  socketTimeoutMS: 10_000,
  waitQueueTimeoutMS: 5_000,
} as const;

export type ClientConcerns = Required<Pick<MongoClientOptions, 'retryWrites' | 'socketTimeoutMS' | 'waitQueueTimeoutMS'>> & {
  writeConcern: WriteConcern;
  readConcern: ReadConcern;
};

/** The options `MongoClient.connect(url, …)` takes: the URL's own, raised where weaker. */
export function clientOptions(url: string): ClientConcerns {
  // The driver parses the URL (a client is not connected until asked): the URL's values
  // come back typed, with the driver's own aliases (journal/j, wtimeout/wtimeoutMS) resolved.
  const given = new MongoClient(url).options;
  return {
    retryWrites: true,
    writeConcern: writeConcernOf(given.writeConcern),
    readConcern: readConcernOf(given.readConcern),
    // 0 is the driver's "none given": no bound.
    socketTimeoutMS: given.socketTimeoutMS || timeoutDefaults.socketTimeoutMS,
    waitQueueTimeoutMS: given.waitQueueTimeoutMS || timeoutDefaults.waitQueueTimeoutMS,
  };
}

/**
 * { w: 'majority', j: true } with the URL's wtimeoutMS (else 5 s), or the URL's own `w`
 * when it names a number of members above 1 or a tag set: MongoDB cannot combine two
 * `w`s, and an operator who writes w=3 or a tag of the set's configuration asks for a
 * specific set of members, which we take as at least what they meant by safe. w=0, w=1
 * and no `w` become 'majority'. `j` is always true (a URL's journal=false is raised).
 */
export function writeConcernOf(given: WriteConcern | undefined): WriteConcern {
  const w = given?.w;
  const explicit = (typeof w === 'number' && w > 1) || (typeof w === 'string' && w !== 'majority');
  return new WriteConcern(explicit ? w : 'majority', given?.wtimeoutMS || timeoutDefaults.wtimeoutMS, true);
}

/** `majority`, or the URL's level when stronger (`linearizable`). */
export function readConcernOf(given: ReadConcern | undefined): ReadConcern {
  // The levels above majority: only linearizable (snapshot is for transactions).
  return new ReadConcern(given?.level === 'linearizable' ? 'linearizable' : 'majority');
}

/** Which reads a collection serves: `position` ones go to the primary whatever the URL says. */
export type Reads = 'position' | 'any';

/**
 * A handle on collection `name` of `db` with the concerns above, whatever `db`'s client
 * was given: the store keeps them even on a Db made elsewhere (the tests', a tool's).
 */
export function collection<T extends Document>(db: Db, name: string, reads: Reads = 'any'): Collection<T> {
  return db.collection<T>(name, concernsOf(db, reads));
}

/** The collection options `collection` applies: also for handles the driver makes (GridFS). */
export function concernsOf(db: Db, reads: Reads = 'any'): CollectionOptions {
  return {
    writeConcern: writeConcernOf(db.writeConcern),
    readConcern: readConcernOf(db.readConcern),
    ...(reads === 'position' ? { readPreference: ReadPreference.primary } : {}),
  };
}
