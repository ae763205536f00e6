import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { describeImportInto } from './import-ntfy-database.js';

/** `tocsin import ntfy` into PostgreSQL (issue 35: an ntfy operator moving to Tocsin on PostgreSQL). */
describeImportInto('PostgreSQL', { freshUrl: freshDatabase, skip: postgresSkip() });
