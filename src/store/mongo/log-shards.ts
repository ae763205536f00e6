import type { Db } from 'mongodb';
import { collection } from './concerns.js';
import { isDuplicateKey } from './duplicate-key.js';
import { HeadsBoard } from './log-heads.js';
import { logCollection, MessageLog, type LogReport } from './message-log.js';
import type { PeerPresence } from '../peer-store.js';
import { defaultShards, shardOf } from '../topic-logs.js';

interface ShardSetting {
  _id: 'shards';
  count: number;
}

/**
 * The database's message logs: topics hash into `count` independent ordered logs, each its
 * own chain of positions (message-log.ts), so commits to different logs never wait for one
 * another, on one node or across nodes. Order, gapless `since=` and releasing a scheduled
 * message once hold within a log, hence within a topic; positions of two logs are not
 * comparable. The count is fixed when the database is first used (recorded in
 * `log_settings`) and cannot change after: a topic's history stays in its log.
 */
export class LogShards {
  private constructor(readonly logs: readonly MessageLog[]) {}

  /**
   * Opens the database's logs, creating them if missing: `configured` of them (0: as many
   * as the database has, or `defaultShards` for a new one), each capped at its share of
   * `capBytes`. A count other than the database's fails the start, naming both.
   */
  static async open(db: Db, configured: number, capBytes: number, report: LogReport = {}, peers?: PeerPresence): Promise<LogShards> {
    const count = await decideCount(db, configured);
    const board = await HeadsBoard.open(db);
    const share = Math.floor(capBytes / count);
    const logs = await Promise.all(Array.from({ length: count }, (_, shard) => MessageLog.open(db, share, report, { shard, count, board, ...(peers && { peers }) })));
    return new LogShards(logs);
  }

  /** The log of `topic`. */
  of(topic: string): MessageLog {
    return this.logs[this.index(topic)] as MessageLog;
  }

  index(topic: string): number {
    return shardOf(topic, this.logs.length);
  }

  /** `items` by the log of their topic, each log's in their order. */
  split<T extends { topic: string }>(items: readonly T[]): Map<MessageLog, T[]> {
    const byLog = new Map<MessageLog, T[]>();
    for (const item of items) {
      const log = this.of(item.topic);
      const own = byLog.get(log);
      if (own) own.push(item);
      else byLog.set(log, [item]);
    }
    return byLog;
  }
}

/** The database's count of logs: recorded by the first process to open it, checked by every later one. */
async function decideCount(db: Db, configured: number): Promise<number> {
  const settings = collection<ShardSetting>(db, 'log_settings', 'position');
  let recorded = await settings.findOne({ _id: 'shards' });
  if (!recorded) {
    // A log written before shards existed is log 0 of 1.
    const [older] = await db.listCollections({ name: logCollection(0) }).toArray();
    const count = older ? 1 : configured || defaultShards;
    try {
      await settings.insertOne({ _id: 'shards', count });
      recorded = { _id: 'shards', count };
    } catch (err) {
      // Another process recorded it first: its count stands.
      if (!isDuplicateKey(err)) throw err;
      recorded = await settings.findOne({ _id: 'shards' });
      if (!recorded) throw err;
    }
  }
  if (configured !== 0 && configured !== recorded.count) {
    throw new Error(`database-shards is ${configured}, but the database's message log has ${recorded.count} shards: topics are placed by that count, so it cannot change; set database-shards to ${recorded.count}, or to 0 to take the database's`);
  }
  return recorded.count;
}
