import type pg from 'pg';
import { peerExpiryMs, type NodeRegistry } from '../peer-store.js';

/** The table of where the nodes are (schema version 3). */
export const clusterNodesSchema = `
  CREATE TABLE cluster_nodes (id text PRIMARY KEY, url text NOT NULL, t bigint NOT NULL);
`;

/**
 * The nodes of a cluster on PostgreSQL, as each says where the others reach it: one row
 * per node, rewritten every few seconds (cluster/peer-links.ts) and removed when it stops.
 */
export class PostgresNodeRegistry implements NodeRegistry {
  constructor(private readonly pool: pg.Pool) {}

  async announce(id: string, url: string): Promise<void> {
    await this.pool.query('INSERT INTO cluster_nodes (id, url, t) VALUES ($1, $2, $3) ON CONFLICT (id) DO UPDATE SET url = $2, t = $3', [id, url, Date.now()]);
  }

  async peersOf(id: string): Promise<{ id: string; url: string }[]> {
    const { rows } = await this.pool.query<{ id: string; url: string }>('SELECT id, url FROM cluster_nodes WHERE id <> $1 AND t >= $2', [id, Date.now() - peerExpiryMs]);
    return rows;
  }

  async withdraw(id: string): Promise<void> {
    await this.pool.query('DELETE FROM cluster_nodes WHERE id = $1', [id]);
  }
}
