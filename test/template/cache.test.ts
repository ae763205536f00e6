import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { CACHE_SIZE, cachedCount, compileCached } from '../../src/template/cache.js';
import { TemplateError } from '../../src/template/index.js';

describe('template cache', () => {
  it('cache — the same text and name give the same compiled template', () => {
    const a = compileCached('{{ .a }}', 'x');
    assert.equal(compileCached('{{ .a }}', 'x'), a);
    assert.notEqual(compileCached('{{ .a }}', 'y'), a);
    assert.equal(a.render({ a: 1 }), '1');
  });

  it('cache — a compile error is cached and thrown again', () => {
    let first: unknown;
    try {
      compileCached('{{ .a }', 'bad');
    } catch (e) {
      first = e;
    }
    assert.ok(first instanceof TemplateError && first.code === 'parse');
    assert.throws(() => compileCached('{{ .a }', 'bad'), (e: unknown) => e === first);
  });

  it('cache — stays bounded, evicting the least recently used', () => {
    const keep = compileCached('keep me');
    for (let i = 0; i < CACHE_SIZE + 50; i++) {
      compileCached(`{{ ${i} }}`);
      if (i % 100 === 0) compileCached('keep me');
    }
    assert.equal(cachedCount(), CACHE_SIZE);
    assert.equal(compileCached('keep me'), keep);
  });
});
