import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { settings } from '../../src/config/schema.js';

/** The configuration page of the docs (docs/configuration.md) against the settings table it documents. */

const page = readFileSync(new URL('../../../docs/configuration.md', import.meta.url), 'utf8');
/** The first cell of each row of the page's table, less its header. */
const rows = [...page.matchAll(/^\| ([^|]+?) \|/gm)].map((match) => match[1]).filter((cell) => cell !== 'key');

describe('config — the docs\' configuration table', () => {
  it('has one row for every setting, and no row for a key Tocsin does not read', () => {
    const keys = Object.keys(settings);
    assert.deepEqual(keys.filter((key) => !rows.includes(key)), [], 'settings without a row');
    assert.deepEqual(rows.filter((row) => !(row !== undefined && row in settings)), [], 'rows of no setting');
    assert.equal(new Set(rows).size, rows.length, 'each key once');
  });
});
