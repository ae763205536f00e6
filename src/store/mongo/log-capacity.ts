import { MongoServerError, type Db } from 'mongodb';

/**
 * The size MongoDB gives a capped collection asked for `bytes`: at least 4,096, else
 * rounded up to a multiple of 256 (FerretDB keeps `bytes` as asked).
 */
export function cappedSize(bytes: number): number {
  return bytes <= 4096 ? 4096 : Math.ceil(bytes / 256) * 256;
}

/**
 * Makes the existing capped collection `name`, capped at `current` bytes, hold `wanted`
 * instead (cache-size-limit changed since it was made): `collMod` with `cappedSize`
 * (MongoDB 6.0 and later), then `resized` says so. Where the server refuses (FerretDB
 * 1.24 has no `collMod`; an older MongoDB has no `cappedSize`) this throws, naming both
 * sizes and the ways out, so that a changed setting is never silently ignored. Sizes are
 * per log; cache-size-limit is shared by the database's `logs` (log-shards.ts).
 */
export async function fitCapSize(db: Db, name: string, current: number, wanted: number, resized: (from: number, to: number) => void, logs = 1): Promise<void> {
  if (current === wanted || current === cappedSize(wanted)) return;
  try {
    await db.command({ collMod: name, cappedSize: wanted });
  } catch (err) {
    if (!(err instanceof MongoServerError)) throw err;
    const each = logs > 1 ? ` (${wanted} for each of its ${logs} logs)` : '';
    throw new Error(
      `cache-size-limit is ${wanted * logs} bytes${each}, but the message log (collection "${name}") is capped at ${current} bytes and this server cannot resize it (collMod cappedSize: ${err.message}). ` +
        `Set cache-size-limit to ${current * logs} to keep the log as it is; or resize it on MongoDB 6.0 or later; or stop every node and drop the "${name}" collection, which the next start makes at the new size (the cached messages are lost).`,
    );
  }
  resized(current, wanted);
}
