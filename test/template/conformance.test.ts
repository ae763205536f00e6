import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { compile, TemplateError } from '../../src/template/index.js';

/**
 * Cases whose expectations Go's text/template with ntfy's Sprig subset produced
 * (tools/template-oracle). Go's error text is kept for reference; only the error code is compared.
 */
interface Case {
  t: string;
  d?: unknown;
  want?: string;
  err?: 'parse' | 'exec' | 'disallowed';
  msg?: string;
}

const dir = new URL('../../../test/template/cases/', import.meta.url);

for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
  const { data, cases } = JSON.parse(readFileSync(new URL(file, dir), 'utf8')) as { data: unknown; cases: Case[] };
  describe(`template conformance — ${file}`, () => {
    for (const c of cases) {
      it(c.t, () => {
        const input = structuredClone('d' in c ? c.d : data);
        let got: string | TemplateError;
        try {
          got = compile(c.t).render(input);
        } catch (e) {
          if (!(e instanceof TemplateError)) throw e;
          got = e;
        }
        if (c.err !== undefined) {
          assert.ok(got instanceof TemplateError, `expected ${c.err} error (Go: ${c.msg ?? ''}), got ${JSON.stringify(got)}`);
          assert.equal(got.code, c.err, `Go: ${c.msg ?? ''}; ours: ${got.message}`);
        } else {
          assert.ok(!(got instanceof TemplateError), `unexpected error ${got instanceof TemplateError ? got.message : ''}`);
          assert.equal(got, c.want);
        }
      });
    }
  });
}
