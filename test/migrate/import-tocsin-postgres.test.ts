import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { describeImportTocsinInto } from './import-tocsin-cases.js';
import { embeddedFiles } from './tocsin-source.js';

/** `tocsin import tocsin` into PostgreSQL (issue 35: a Tocsin on its embedded files moving to database-url). */

// With database-url the files live in the database; attachment-cache-dir only turns attachments on.
const { attachmentCacheDir } = embeddedFiles();
describeImportTocsinInto('PostgreSQL', {
  settings: async () => ({ 'database-url': await freshDatabase('import_tocsin'), 'attachment-cache-dir': attachmentCacheDir }),
  skip: postgresSkip(),
});
