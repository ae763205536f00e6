/**
 * A source the import will not read: a file that is missing, is not an SQLite database,
 * or is not what its flag names (another program's file, or a schema this Tocsin does not
 * know). Names the file, so the user knows which flag to fix; thrown before anything is
 * written.
 */
export class NotImportable extends Error {
  constructor(file: string, detail: string) {
    super(`${file}: ${detail}`);
    this.name = 'NotImportable';
  }
}
