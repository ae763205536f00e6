import { after } from 'node:test';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { describeCluster, type ClusterBackend } from './cluster-cases.js';

/** Tocsin processes on one MongoDB-wire database (FerretDB). */

let ferret: Promise<FerretDb> | undefined;
after(async () => (await ferret)?.stop());

const mongo: ClusterBackend = {
  /** The database-url of a fresh database on the file's FerretDB. */
  freshDatabase: async (label) => {
    const server = await (ferret ??= startFerretDb());
    return server.url.replace('/?', `/${server.databaseName(label)}?`);
  },
  skip: ferretDbSkip(),
};

describeCluster('MongoDB', mongo);
