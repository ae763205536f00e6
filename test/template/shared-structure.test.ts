import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compile, TemplateError, type RenderLimits } from '../../src/template/index.js';

/**
 * Issue 33, finding 2: a value built from shared references is cheap to build and exponential
 * to walk. `$x` below is 40 lists (each holds the previous one twice) but 2^40 values to a walk;
 * `$m` is the same with maps. Every function that walks a value must stop at the render's work
 * budget or deadline (TemplateError 'timeout'), and those Go answers at once must answer at once.
 */
const lists = (depth: number): string => `{{ $x := list 1 }}{{ range $i := until ${depth} }}{{ $x = list $x $x }}{{ end }}`;
const maps = (depth: number): string => `{{ $m := dict "k" 1 }}{{ range $i := until ${depth} }}{{ $m = dict "a" $m "b" $m }}{{ end }}`;
const shared = lists(40) + maps(40);

/** A budget small enough that walks stop on it before any size bound: the outcome does not depend on the machine's speed. */
const budget: RenderLimits = { maxWork: 5_000 };

function timed(text: string, limits: RenderLimits = {}): { ms: number; result: string | TemplateError } {
  const started = performance.now();
  let result: string | TemplateError;
  try {
    result = compile(text).render({}, limits);
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    result = e;
  }
  return { ms: performance.now() - started, result };
}

/** Every function and engine path that walks a whole value: printing, JSON, strings of values, comparisons. */
const walks = [
  '{{ $x }}',
  '{{ $m }}',
  '{{ range $x }}{{ . }}{{ end }}',
  '{{ print $x }}',
  '{{ println $m }}',
  '{{ printf "%v" $x }}',
  '{{ printf "%q" $x }}',
  '{{ printf "%x" $m }}',
  '{{ printf "%d" $x 1 }}',
  '{{ printf "%!" $x }}',
  '{{ html $x }}',
  '{{ js $m }}',
  '{{ urlquery $x }}',
  '{{ eq $x $x }}',
  '{{ ne $m $m }}',
  '{{ toString $x }}',
  '{{ toStrings $x }}',
  '{{ join "," $x }}',
  '{{ sortAlpha $x }}',
  '{{ cat $x }}',
  '{{ quote $m }}',
  '{{ squote $x }}',
  '{{ dict $x 1 }}',
  '{{ toDecimal $x }}',
  '{{ toJSON $x }}',
  '{{ mustToJSON $m }}',
  '{{ toPrettyJSON $x }}',
  '{{ mustToPrettyJSON $m }}',
  '{{ toRawJSON $x }}',
  '{{ mustToRawJSON $m }}',
  '{{ fail (toString $x) }}',
];

describe('templates — values with shared structure', () => {
  for (const use of walks) {
    it(`shared structure — ${use} stops at the work budget within 300 ms`, () => {
      const { ms, result } = timed(shared + use, budget);
      assert.ok(result instanceof TemplateError, `rendered: ${String(result).slice(0, 80)}`);
      assert.equal(result.code, 'timeout', result.message);
      assert.ok(ms < 1000, `${ms} ms`);
    });
  }

  it('shared structure — with the default limits a walk stops within 1 s (deadline, budget, or on a fast machine the size bound)', () => {
    for (const use of ['{{ $x }}', '{{ toJSON $m }}', '{{ join "," $x }}']) {
      const { ms, result } = timed(shared + use);
      assert.ok(result instanceof TemplateError && (result.code === 'timeout' || result.code === 'too-large'), use);
      assert.ok(ms < 1000, `${use}: ${ms} ms`);
    }
  });

  // Go's answers (tools/template-oracle): reflect.DeepEqual takes a list or map compared with
  // itself as equal, and a pair met again as equal, so none of these walk 2^40 values.
  const fast: [string, string][] = [
    ['{{ deepEqual $x $x }}', 'true'],
    ['{{ deepEqual $m $m }}', 'true'],
    ['{{ $y := list 1 }}{{ range $i := until 40 }}{{ $y = list $y $y }}{{ end }}{{ deepEqual $x $y }}', 'true'],
    ['{{ $y := list 2 }}{{ range $i := until 40 }}{{ $y = list $y $y }}{{ end }}{{ deepEqual $x $y }}', 'false'],
    ['{{ $n := dict "k" 1 }}{{ range $i := until 40 }}{{ $n = dict "a" $n "b" $n }}{{ end }}{{ deepEqual $m $n }}', 'true'],
    ['{{ has $x (list 1 $x) }}', 'true'],
    ['{{ has 5 (list $x $x) }}', 'false'],
    ['{{ len (without (list $x 1 $x) $x) }}', '1'],
    ['{{ len (uniq (list $x $m $x $m 1)) }}', '3'],
    ['{{ len $x }} {{ len $m }} {{ len (index $x 0 1 0) }}', '2 2 2'],
    ['{{ keys $m }} {{ len (values $m) }} {{ len (pick $m "a") }} {{ len (omit $m "a") }}', '[a b] 2 1 1'],
    ['{{ len (dig "a" "b" "a" "x" $m) }}', '2'],
    ['{{ len (compact $x) }} {{ len (reverse $x) }} {{ len (append $x 1) }} {{ len (concat $x $x) }} {{ len (rest $x) }}', '2 2 3 4 1'],
    ['{{ empty $x }} {{ if $m }}yes{{ end }} {{ typeOf $x }} {{ kindOf $m }} {{ len (list $x $x | first) }}', 'false yes []interface {} map 2'],
  ];
  for (const [use, want] of fast) {
    it(`shared structure — ${use.slice(-40)} answers ${want} at once, as Go`, () => {
      const { ms, result } = timed(shared + use);
      assert.equal(result, want);
      assert.ok(ms < 1000, `${ms} ms`);
    });
  }

  it('shared structure — comparisons that really are long stop at the budget (has over many distinct lists)', () => {
    const many = '{{ $l := list }}{{ range $i := until 5000 }}{{ $l = append $l (list $i $i) }}{{ end }}';
    for (const use of ['{{ has (list -1 -1) $l }}', '{{ without $l (list -1) (list -2) (list -3) }}', '{{ uniq $l }}']) {
      const { ms, result } = timed(many + '{{ range until 100 }}' + use + '{{ end }}', budget);
      assert.ok(result instanceof TemplateError && result.code === 'timeout', use);
      assert.ok(ms < 1000, `${use}: ${ms} ms`);
    }
  });

  it('shared structure — strings built near the size bound are charged by length (a loop over them stops)', () => {
    const big = '{{ $s := repeat 9999 "abcdefghij" }}{{ $s = cat $s $s $s $s $s }}';
    for (const use of ['title $s', 'quote $s', 'js $s', 'urlquery $s', 'b32enc $s', 'toJSON $s', 'regexFind "z" $s', 'upper $s', 'len $s']) {
      const { ms, result } = timed(`${big}{{ range until 10000 }}{{ $_ := ${use} }}{{ end }}`, { timeoutMs: 60_000 });
      assert.ok(result instanceof TemplateError && result.code === 'timeout', use);
      assert.ok(ms < 3000, `${use}: ${ms} ms`);
    }
  });

  it('shared structure — printing builds no string past the bound before checking it', () => {
    const { result } = timed('{{ $s := repeat 9000 "0123456789" }}{{ $l := list }}{{ range until 200 }}{{ $l = append $l $s }}{{ end }}{{ printf "%v%v" $l $l }}', { maxWork: 10_000_000 });
    assert.ok(result instanceof TemplateError);
    assert.equal(result.code, 'too-large');
  });
});
