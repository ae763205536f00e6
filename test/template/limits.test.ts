import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, DEFAULT_MAX_OUTPUT, TemplateError, type RenderLimits } from '../../src/template/index.js';

const renderError = (text: string, data: unknown, limits?: RenderLimits): TemplateError => {
  try {
    compile(text).render(data, limits);
  } catch (e) {
    if (e instanceof TemplateError) return e;
    throw e;
  }
  return assert.fail('expected a TemplateError');
};

describe('template limits', () => {
  it('limits — a nested range over until stops at the timeout', () => {
    // 10^12 iterations: only the deadline can stop this.
    const text = '{{ range until 10000 }}{{ range until 10000 }}{{ range until 10000 }}{{ end }}{{ end }}{{ end }}';
    const started = Date.now();
    const err = renderError(text, {}, { timeoutMs: 50 });
    assert.equal(err.code, 'timeout');
    assert.match(err.message, /timed out/);
    assert.ok(Date.now() - started < 2000, 'stopped soon after the deadline');
  });

  it('limits — an integer range of a billion stops at the timeout', () => {
    const err = renderError('{{ range $i := 1000000000 }}{{ end }}', {}, { timeoutMs: 30 });
    assert.equal(err.code, 'timeout');
  });

  it('limits — output beyond maxOutput fails with too-large', () => {
    const err = renderError('{{ range until 10000 }}0123456789{{ end }}', {}, { maxOutput: 1000 });
    assert.equal(err.code, 'too-large');
  });

  it('limits — maxOutput counts UTF-8 bytes', () => {
    assert.equal(compile('{{ .s }}').render({ s: 'é'.repeat(5) }, { maxOutput: 10 }), 'ééééé');
    assert.equal(renderError('{{ .s }}', { s: 'é'.repeat(6) }, { maxOutput: 10 }).code, 'too-large');
  });

  it('limits — the default output cap applies without limits', () => {
    const err = renderError('{{ range until 10000 }}{{ repeat 10 "0123456789" }}{{ end }}', {});
    assert.equal(err.code, 'too-large');
    assert.match(err.message, new RegExp(String(DEFAULT_MAX_OUTPUT)));
  });

  it('limits — Sprig refuses to build huge lists and strings (ntfy limits)', () => {
    assert.equal(renderError('{{ until 1000000000 }}', {}).code, 'exec');
    assert.equal(renderError('{{ seq 1000000 }}', {}).code, 'exec');
    assert.equal(renderError('{{ repeat 100000 "x" }}', {}).code, 'exec');
    assert.equal(renderError('{{ repeat 10000 "0123456789" }}', {}).code, 'exec');
  });

  it('limits — doubling a string or list in a loop fails with too-large before memory runs out', () => {
    const str = renderError('{{ $s := "xx" }}{{ range until 100 }}{{ $s = cat $s $s }}{{ end }}{{ len $s }}', {}, { timeoutMs: 5000 });
    assert.equal(str.code, 'too-large');
    const list = renderError('{{ $l := list 1 }}{{ range until 100 }}{{ $l = concat $l $l }}{{ end }}', {}, { timeoutMs: 5000 });
    assert.equal(list.code, 'too-large');
  });

  it('limits — regular expressions run in linear time (no catastrophic backtracking)', () => {
    const started = Date.now();
    const text = '{{ regexMatch "(a+)+$" (printf "%sb" (repeat 5000 "a")) }}';
    assert.equal(compile(text).render({}, { timeoutMs: 5000 }), 'false');
    assert.ok(Date.now() - started < 2000);
  });

  it('limits — a regex match too big for the deadline fails with timeout', () => {
    const err = renderError('{{ regexMatch "(x{100}){9}y" (repeat 9999 "x") }}', {}, { timeoutMs: 20 });
    assert.equal(err.code, 'timeout');
    assert.match(err.message, /timed out/);
  });

  it('limits — building a huge string from a list of big strings fails with too-large', () => {
    const build = '{{ $s := repeat 9000 "0123456789" }}{{ $l := list }}{{ range until 200 }}{{ $l = append $l $s }}{{ end }}';
    for (const use of ['{{ join "," $l }}', '{{ cat $l }}', '{{ print $l }}', '{{ printf "%v" $l }}', '{{ toJSON $l }}', '{{ $l }}', '{{ quote $l }}']) {
      // The size bound is under test, so the work budget is out of its way.
      const err = renderError(build + use, {}, { timeoutMs: 5000, maxWork: 1e9, maxOutput: 1 << 30 });
      assert.equal(err.code, 'too-large', use);
    }
  });

  it('limits — widths, indents and replacements cannot allocate without bound', () => {
    assert.equal(compile('{{ printf "%2000000d" 1 }}').render({}), '%!(BADWIDTH)1');
    assert.equal(renderError('{{ indent 100000000 "x" }}', {}).code, 'too-large');
    assert.equal(renderError('{{ replace "a" (repeat 9000 "bbbbbbbbbb") (repeat 10000 "a") }}', {}).code, 'too-large');
  });

  it('limits — uniq over many distinct maps stops at the deadline or the work budget', () => {
    const text = '{{ $l := list }}{{ range $i := until 10000 }}{{ $l = append $l (dict "i" $i) }}{{ end }}{{ $l = concat $l $l $l $l }}{{ len (uniq $l) }}';
    const err = renderError(text, {}, { timeoutMs: 100 });
    assert.equal(err.code, 'timeout');
  });

  it('limits — within limits the same template renders', () => {
    assert.equal(compile('{{ range until 3 }}{{ . }}{{ end }}').render({}, { maxOutput: 3, timeoutMs: 1000 }), '012');
  });
});
