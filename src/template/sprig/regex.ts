/** Sprig's regex functions, over Go's RE2 syntax and semantics (regexp/ is a linear-time engine). */
import { RenderLimit, checkLength } from '../bounds.js';
import { SCAN_STEP, scanned } from '../budget.js';
import { fail, fn, type GoFunc } from '../funcs.js';
import { RegexpError } from '../regexp/error.js';
import { compileRegexp, execProgram, type Program } from '../regexp/vm.js';
import { typedArray } from '../values.js';

const cache = new Map<string, Program>();

function compile(src: string): Program {
  let p = cache.get(src);
  if (p === undefined) {
    p = compileRegexp(src);
    if (cache.size >= 500) cache.delete(cache.keys().next().value as string);
    cache.set(src, p);
  }
  return p;
}

/** The input as code points, with each one's JS string index (offs[n] is the length). */
class Subject {
  readonly cps: number[] = [];
  readonly offs: number[] = [];
  constructor(readonly s: string) {
    for (let i = 0; i < s.length; ) {
      if (this.cps.length % SCAN_STEP === 0) scanned();
      const cp = s.codePointAt(i) ?? 0;
      this.cps.push(cp);
      this.offs.push(i);
      i += cp > 0xffff ? 2 : 1;
    }
    this.offs.push(s.length);
  }
  text(a: number, b: number): string {
    return this.s.slice(this.offs[a], this.offs[b]);
  }
}

/** Go's allMatches: n < 0 for all; an empty match right after a match is skipped. */
function findAll(p: Program, sub: Subject, n: number): number[][] {
  const out: number[][] = [];
  const end = sub.cps.length;
  for (let pos = 0, prevEnd = -1; (n < 0 || out.length < n) && pos <= end; ) {
    const m = execProgram(p, sub.cps, pos);
    if (m === null) break;
    const [a = 0, b = 0] = m;
    let accept = true;
    if (b === pos) {
      if (a === prevEnd) accept = false;
      pos++;
    } else pos = b;
    prevEnd = b;
    if (accept) out.push(m);
  }
  return out;
}

/** Go's Regexp.replaceAll. */
function replaceAll(p: Program, s: string, repl: (sub: Subject, m: number[]) => string): string {
  const sub = new Subject(s);
  let out = '';
  let lastEnd = 0;
  for (let pos = 0; pos <= sub.cps.length; ) {
    const m = execProgram(p, sub.cps, pos);
    if (m === null) break;
    const [a = 0, b = 0] = m;
    out += sub.text(lastEnd, a);
    if (b > lastEnd || a === 0) out += repl(sub, m);
    checkLength(out.length);
    lastEnd = b;
    pos = pos + 1 > b ? pos + 1 : b;
  }
  return out + sub.text(lastEnd, sub.cps.length);
}

/** Regexp.Expand's template: $1, $name, ${name}; $$ is a dollar; a malformed $ is kept. */
function expand(repl: string, p: Program, sub: Subject, m: number[]): string {
  return repl.replace(/\$(\$|\{(\w+)\}|(\w+))?/g, (all, _x: string, braced?: string, bare?: string) => {
    if (all === '$$') return '$';
    const name = braced ?? bare;
    if (name === undefined) return '$';
    const g = /^\d+$/.test(name) ? Number(name) : p.names.get(name);
    const a = g === undefined ? -1 : (m[2 * g] ?? -1);
    return a < 0 ? '' : sub.text(a, m[2 * (g ?? 0) + 1] ?? a);
  });
}

/** Go's Regexp.Split. */
function split(p: Program, src: string, s: string, n: number): string[] {
  if (n === 0) return [];
  if (src.length > 0 && s.length === 0) return [''];
  const sub = new Subject(s);
  const out: string[] = [];
  let beg = 0;
  let end = 0;
  for (const m of findAll(p, sub, n)) {
    if (n > 0 && out.length === n - 1) break;
    end = m[0] ?? 0;
    if ((m[1] ?? 0) !== 0) out.push(sub.text(beg, end));
    beg = m[1] ?? 0;
  }
  if (end !== sub.cps.length) out.push(sub.text(beg, sub.cps.length));
  return out;
}

/** Compile or run, turning the engine's errors into Go's function errors. */
function run<T>(f: () => T): T {
  try {
    return f();
  } catch (e) {
    if (e instanceof RenderLimit) throw e;
    return fail((e as Error).message);
  }
}

const strs = (v: string[]): unknown[] => typedArray(v, 'string');
const first = (r: string, s: string): number[] | undefined => findAll(compile(r), new Subject(s), 1)[0];

const match = fn('string string', (r: string, s: string) => run(() => first(r, s) !== undefined));
const findAllF = fn('string string int', (r: string, s: string, n: bigint) =>
  run(() => {
    const sub = new Subject(s);
    return strs(findAll(compile(r), sub, Number(n)).map((m) => sub.text(m[0] ?? 0, m[1] ?? 0)));
  }),
);
const find = fn('string string', (r: string, s: string) =>
  run(() => {
    const m = first(r, s);
    return m === undefined ? '' : new Subject(s).text(m[0] ?? 0, m[1] ?? 0);
  }),
);
const replace = fn('string string string', (r: string, s: string, repl: string) =>
  run(() => {
    const p = compile(r);
    return replaceAll(p, s, (sub, m) => expand(repl, p, sub, m));
  }),
);
const replaceLiteral = fn('string string string', (r: string, s: string, repl: string) =>
  run(() => replaceAll(compile(r), s, () => repl)),
);
const splitF = fn('string string int', (r: string, s: string, n: bigint) => run(() => strs(split(compile(r), r, s, Number(n)))));

export const regex: Record<string, GoFunc> = {
  // Sprig's regexMatch swallows a bad pattern and answers false.
  regexMatch: fn('string string', (r: string, s: string) => {
    try {
      return first(r, s) !== undefined;
    } catch (e) {
      if (e instanceof RegexpError) return false;
      throw e;
    }
  }),
  mustRegexMatch: match,
  regexFindAll: findAllF,
  mustRegexFindAll: findAllF,
  regexFind: find,
  mustRegexFind: find,
  regexReplaceAll: replace,
  mustRegexReplaceAll: replace,
  regexReplaceAllLiteral: replaceLiteral,
  mustRegexReplaceAllLiteral: replaceLiteral,
  regexSplit: splitF,
  mustRegexSplit: splitF,
  regexQuoteMeta: fn('string', (s: string) => s.replace(/[\\.+*?()|[\]{}^$]/g, '\\$&')),
};
