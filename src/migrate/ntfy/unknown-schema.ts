import { NotImportable } from '../not-importable.js';

/**
 * An ntfy database whose schema the import does not know: a version ntfy never shipped
 * (or newer than this Tocsin), or a table that lacks what its version has. Names the
 * file, the table and the version, so the user knows which ntfy made it.
 */
export class UnknownSchema extends NotImportable {
  constructor(file: string, table: string, version: number | undefined, detail: string) {
    const at = version === undefined ? '' : ` at schema version ${version}`;
    super(file, `table ${table}${at} is not a schema this Tocsin can import (${detail})`);
    this.name = 'UnknownSchema';
  }
}
