import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { errors, HttpError } from '../../src/model/errors.js';

function sources(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith('.js') ? [path] : [];
  });
}

describe('error registry', () => {
  it('codes are unique and their first three digits are the HTTP status, as in ntfy', () => {
    const codes = Object.values(errors).map((e) => e.code);
    assert.equal(new Set(codes).size, codes.length);
    for (const e of Object.values(errors)) assert.equal(Math.floor(e.code / 100), e.http, String(e.code));
  });

  it('every error the code raises is a registry entry (no ad-hoc HttpError)', () => {
    const src = new URL('../../src/', import.meta.url).pathname;
    const adHoc = sources(src).filter((file) => !file.endsWith('errors.js') && readFileSync(file, 'utf8').includes('new HttpError('));
    assert.deepEqual(adHoc, []);
    const used = new Set(sources(src).flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/(?<![\w/])errors\.(?!js\b|go\b)(\w+)/g)].map((m) => m[1])));
    for (const name of used) assert.ok(name !== undefined && name in errors, `errors.${name} is not in the registry`);
  });

  it('serialises as ntfy’s body, with link only when there is one, and wraps detail', () => {
    assert.deepEqual(JSON.parse(JSON.stringify(errors.topicInvalid)), { code: 40009, http: 400, error: 'invalid request: topic invalid' });
    const wrapped = errors.actionsInvalid.wrap('only 3 actions allowed');
    assert.ok(wrapped instanceof HttpError);
    assert.deepEqual(JSON.parse(JSON.stringify(wrapped)), {
      code: 40018,
      http: 400,
      error: 'invalid request: actions invalid; only 3 actions allowed',
      link: 'https://ntfy.sh/docs/publish/#action-buttons',
    });
  });
});
