import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/**
 * The web app's message catalogues (web/src/i18n/, issue 40 item 5): every language has
 * exactly en.json's keys, each message the same parameters, and plurals an `other` branch,
 * so a translation can neither miss a string nor drop or misname what fills it in.
 */

const dir = fileURLToPath(new URL('../../../web/src/i18n/', import.meta.url));
const read = (file: string): Record<string, string> => JSON.parse(readFileSync(`${dir}${file}`, 'utf8')) as Record<string, string>;

/** The closing brace matching the opening one at `open`. */
function closing(text: string, open: number): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    if (text[i] === '{') depth++;
    else if (text[i] === '}' && --depth === 0) return i;
  }
  throw new Error(`unbalanced braces in "${text}"`);
}

/** The `{blocks}` at the top level of `text`, each with the text before it. */
function blocks(text: string): { before: string; inner: string }[] {
  const found: { before: string; inner: string }[] = [];
  let i = 0;
  for (let open = text.indexOf('{'); open >= 0; open = text.indexOf('{', i)) {
    const end = closing(text, open);
    found.push({ before: text.slice(i, open), inner: text.slice(open + 1, end) });
    i = end + 1;
  }
  return found;
}

/** A message's parameter names (`{name}`, and `{name, plural, …}` with those of its branches), sorted. */
function params(text: string): string[] {
  const names = new Set<string>();
  for (const { inner } of blocks(text)) {
    const [name = '', kind, ...rest] = inner.split(',');
    names.add(name.trim());
    if (kind?.trim() !== 'plural') continue;
    const branches = blocks(rest.join(','));
    assert.ok(branches.some((b) => b.before.trim() === 'other'), `"${text}" has no other branch`);
    for (const b of branches) for (const n of params(b.inner)) names.add(n);
  }
  return [...names].sort();
}

describe('web app message catalogues', () => {
  const en = read('en.json');
  const languages = readdirSync(dir).filter((f) => f.endsWith('.json'));

  it('offers English, German, French, Spanish, Chinese and Arabic', () => {
    assert.deepEqual(languages.sort(), ['ar.json', 'de.json', 'en.json', 'es.json', 'fr.json', 'zh.json']);
  });

  for (const file of languages.filter((f) => f !== 'en.json')) {
    it(`${file} has exactly en.json's keys, each with the same parameters, translated`, () => {
      const other = read(file);
      assert.deepEqual(Object.keys(other).sort(), Object.keys(en).sort());
      const differing = Object.keys(en).filter((key) => params(en[key] ?? '').join() !== params(other[key] ?? '').join());
      assert.deepEqual(differing, []);
      // Copies of English slip through a key check: most messages must differ from it.
      const copied = Object.keys(en).filter((key) => en[key] === other[key]);
      assert.ok(copied.length < Object.keys(en).length / 10, `${copied.length} messages equal English: ${copied.join(', ')}`);
    });
  }

  it('reads parameters and plurals as the app does', () => {
    assert.deepEqual(params('{count, plural, one {# day} other {# days in {place}}} for {user}'), ['count', 'place', 'user']);
    assert.throws(() => params('{count, plural, one {# day}}'), /no other branch/);
    assert.throws(() => params('{topic'), /unbalanced/);
  });
});
