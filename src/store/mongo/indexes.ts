import { MongoNetworkError, type Collection, type Document, type IndexDescription } from 'mongodb';

/**
 * Creates the indexes `collection` lacks. MongoDB takes createIndexes of existing indexes
 * as a no-op; FerretDB 1.24 drops the connection instead (seen here on the second open of
 * a database), so the names already there are asked first. Nodes opening one database at
 * once still race to create the same indexes, and FerretDB drops the loser's connection:
 * looking again then finds them made (seen with three nodes starting together).
 */
export async function ensureIndexes<T extends Document>(collection: Collection<T>, specs: IndexDescription[]): Promise<void> {
  try {
    await createMissing(collection, specs);
  } catch (err) {
    if (!(err instanceof MongoNetworkError)) throw err;
    await createMissing(collection, specs);
  }
}

async function createMissing<T extends Document>(collection: Collection<T>, specs: IndexDescription[]): Promise<void> {
  const existing = new Set((await collection.listIndexes().toArray().catch(() => [])).map((index) => index.name as string));
  const missing = specs.filter((spec) => !existing.has(spec.name ?? indexName(spec.key)));
  if (missing.length > 0) await collection.createIndexes(missing);
}

/** MongoDB's default index name: `field_direction` pairs joined by `_`. */
function indexName(key: IndexDescription['key']): string {
  const entries = key instanceof Map ? [...key.entries()] : Object.entries(key);
  return entries.map(([field, direction]) => `${field}_${String(direction)}`).join('_');
}
