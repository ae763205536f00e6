import { after } from 'node:test';
import { ferretDbSkip, startFerretDb, type FerretDb } from '../support/ferretdb.js';
import { describeImportTocsinInto } from './import-tocsin-cases.js';
import { embeddedFiles } from './tocsin-source.js';

/** `tocsin import tocsin` into MongoDB (FerretDB). */

let ferret: FerretDb | undefined;
after(() => ferret?.stop());

// With database-url the files live in the database; attachment-cache-dir only turns attachments on.
const { attachmentCacheDir } = embeddedFiles();
describeImportTocsinInto('MongoDB', {
  settings: async () => {
    ferret ??= await startFerretDb();
    return { 'database-url': ferret.url.replace('/?', `/${ferret.databaseName('import_tocsin')}?`), 'attachment-cache-dir': attachmentCacheDir };
  },
  skip: ferretDbSkip(),
});
