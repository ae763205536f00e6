import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, TemplateError } from '../../src/template/index.js';

function error(text: string, data: unknown = {}, name = 't'): TemplateError {
  try {
    compile(text, name).render(data);
  } catch (e) {
    if (e instanceof TemplateError) return e;
    throw e;
  }
  return assert.fail(`expected ${JSON.stringify(text)} to fail`);
}

describe('template errors', () => {
  const parseCases: [string, RegExp][] = [
    ['{{ .a }', /^template: t:1:6: unrecognized character in action: "}"$/],
    ['x\n  {{ if .a }}', /^template: t:2:\d+: unexpected EOF$/],
    ['{{ end }}', /^template: t:1:\d+: unexpected {{end}}$/],
    ['{{ nosuch 1 }}', /^template: t:1:3: function "nosuch" not defined$/],
    ['{{ $x }}', /^template: t:1:3: undefined variable "\$x"$/],
    ['{{ break }}', /{{break}} outside {{range}}/],
    ['{{ "abc }}', /unterminated quoted string/],
    ['{{/* x', /unclosed comment/],
    ['{{ 1 | 2 }}', /non executable command in pipeline stage 2/],
    ['{{ (1 }}', /unclosed left paren/],
    ['{{ 1) }}', /unexpected right paren/],
    ['{{ .a-b }}', /bad character U\+002D '-'/],
    ['{{ 12abc }}', /bad number syntax/],
    ['{{ 99999999999999999999 }}', /integer overflow/],
    ['{{ if }}{{ end }}', /missing value for if/],
    ['{{ "a".b }}', /unexpected \. after term/],
    ['{{ $a, $b, $c := . }}', /too many declarations|range can only/],
  ];
  for (const [text, re] of parseCases) {
    it(`parse — ${text.replace(/\n/g, '\\n')}`, () => {
      const e = error(text);
      assert.equal(e.code, 'parse');
      assert.match(e.message, re);
    });
  }

  it('parse — errors are thrown by compile, before any data is seen', () => {
    assert.throws(() => compile('{{ .a }'), (e: unknown) => e instanceof TemplateError && e.code === 'parse');
  });

  it('disallowed — template, call, define and block, as ntfy refuses them', () => {
    for (const text of ['{{ template "x" }}', '{{- call .f }}', 'a\n{{define "x"}}{{end}}', '{{block "b" .}}{{end}}']) {
      assert.throws(() => compile(text), (e: unknown) => e instanceof TemplateError && e.code === 'disallowed', text);
    }
    assert.equal(compile('{{ .template }} {{ .call }}').render({ template: 1, call: 2 }), '1 2');
  });

  it('disallowed — the message names line and column', () => {
    const e = error('ok\n  {{ template "x" }}');
    assert.equal(e.message, 'template: t:2:2: template is not allowed in templates');
  });

  it('exec — names line, column, the failing node and the reason', () => {
    const e = error('line one\n{{ .a.b }}', { a: 'str' });
    assert.equal(e.code, 'exec');
    assert.equal(e.message, 'template: t:2:3: executing "t" at <.a.b>: can\'t evaluate field b in type string');
  });

  it('exec — a function error says which function', () => {
    const e = error('{{ fail "boom" }}');
    assert.equal(e.code, 'exec');
    assert.equal(e.message, 'template: t:1:3: executing "t" at <fail "boom">: error calling fail: boom');
  });

  it('exec — comparing float64 data with an int literal fails as in Go', () => {
    const e = error('{{ if eq .n 1 }}x{{ end }}', { n: 1 });
    assert.match(e.message, /incompatible types for comparison/);
  });

  it('exec — wrong argument types name Go types', () => {
    assert.match(error('{{ trunc .n "abc" }}', { n: 2 }).message, /wrong type for value; expected int; got float64/);
    assert.match(error('{{ upper .missing }}').message, /invalid value; expected string/);
    assert.match(error('{{ upper 1 }}').message, /expected string; found 1/);
    assert.match(error('{{ upper }}').message, /wrong number of args for upper: want 1 got 0/);
  });

  it('parse — deep nesting is a parse error, not a stack overflow', () => {
    const parens = '{{ ' + '('.repeat(5000) + '1' + ')'.repeat(5000) + ' }}';
    assert.throws(() => compile(parens), (e: unknown) => e instanceof TemplateError && e.code === 'parse' && /max expression depth/.test(e.message));
    const ifs = '{{ if 1 }}'.repeat(5000) + '{{ end }}'.repeat(5000);
    assert.throws(() => compile(ifs), (e: unknown) => e instanceof TemplateError && e.code === 'parse');
  });

  it('exec — deeply nested data that exhausts the stack is an exec error', () => {
    const deep = JSON.parse('['.repeat(50000) + ']'.repeat(50000)) as unknown;
    assert.throws(() => compile('{{ . }}').render(deep), (e: unknown) => e instanceof TemplateError && e.code === 'exec');
  });

  it('exec — the default template name is empty, as in ntfy', () => {
    assert.throws(() => compile('{{ .a.b }}').render({ a: 1 }), /^TemplateError: template: :1:3: executing "" at <\.a\.b>/);
  });
});
