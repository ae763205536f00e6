import { after } from 'node:test';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { describeImportInto } from './import-ntfy-database.js';

/** `tocsin import ntfy` into MongoDB (FerretDB). */

let ferret: FerretDb | undefined;
after(() => ferret?.stop());

describeImportInto('MongoDB', {
  freshUrl: async (label) => {
    ferret ??= await startFerretDb();
    return ferret.url.replace('/?', `/${ferret.databaseName(label)}?`);
  },
  skip: ferretDbSkip(),
});
