import pg from 'pg';

/** int8 (count(*), positions, times) as numbers: every value the store keeps is below 2^53. */
const int8 = 20;
const types: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') => (oid === int8 ? Number : pg.types.getTypeParser(oid, format))) as pg.CustomTypesConfig['getTypeParser'],
};

/** What every connection of the store is opened with, pooled or not (the feed's listener). */
export const poolOptions = { types } as const;

/** A pool of connections to the database at `url` (`postgres://` or `postgresql://`, libpq's parameters). */
export function openPool(url: string): pg.Pool {
  return new pg.Pool({ connectionString: url, max: 10, ...poolOptions });
}

/**
 * Runs `work` in a transaction (`begin`: its BEGIN statement) on one pooled connection:
 * committed if it resolves, rolled back if it throws.
 */
export async function inTransaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>, begin = 'BEGIN'): Promise<T> {
  const client = await pool.connect();
  try {
    await client.query(begin);
    const result = await work(client);
    await client.query('COMMIT');
    return result;
  } catch (err) {
    await client.query('ROLLBACK').catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
}
