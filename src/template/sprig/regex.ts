/** Sprig's regex functions over Go RE2 syntax, translated to JS RegExp (see FUNCTIONS.md for limits). */
import { fail, fn, type GoFunc } from '../funcs.js';
import { typedArray } from '../values.js';

const posix: Record<string, string> = {
  alnum: '0-9A-Za-z', alpha: 'A-Za-z', ascii: '\\x00-\\x7F', blank: '\\t ', cntrl: '\\x00-\\x1F\\x7F', digit: '0-9',
  graph: '!-~', lower: 'a-z', print: ' -~', punct: '!-/:-@[-`{-~', space: '\\t\\n\\v\\f\\r ', upper: 'A-Z', word: '0-9A-Za-z_', xdigit: '0-9A-Fa-f',
};

const cache = new Map<string, RegExp>();

/** Compile Go syntax; throws Go's "error parsing regexp" style message. */
function compile(src: string): RegExp {
  const hit = cache.get(src);
  if (hit !== undefined) return hit;
  let flags = 'gu';
  let body = src.replace(/^\(\?([imsU]+)\)/, (_, f: string) => {
    for (const c of f) if (c !== 'U' && !flags.includes(c)) flags += c;
    return '';
  });
  body = body
    .replace(/\(\?P</g, '(?<')
    .replace(/\[:(\^?)(\w+):\]/g, (m, neg: string, name: string) => (posix[name] === undefined ? m : neg === '' ? posix[name] : m))
    .replace(/\\z/g, '$(?![\\s\\S])')
    .replace(/\\A/g, '^(?<![\\s\\S])')
    .replace(/\\([pP])([A-Z])/g, '\\$1{$2}');
  let re: RegExp;
  try {
    re = new RegExp(body, flags);
  } catch {
    try {
      re = new RegExp(body, flags.replace('u', ''));
    } catch (e) {
      return fail(`error parsing regexp: ${(e as Error).message.replace(/^Invalid regular expression: /, '')}`);
    }
  }
  if (cache.size < 500) cache.set(src, re);
  return re;
}

/** Go's FindAllStringIndex: n < 0 all; an empty match right after a match is skipped. */
function findAll(re: RegExp, s: string, n: number): RegExpExecArray[] {
  const out: RegExpExecArray[] = [];
  if (n === 0) return out;
  re.lastIndex = 0;
  let prevEnd = -1;
  for (let m = re.exec(s); m !== null; m = re.exec(s)) {
    const end = m.index + m[0].length;
    if (m[0] === '') {
      re.lastIndex = m.index + (s.codePointAt(m.index) !== undefined && (s.codePointAt(m.index) ?? 0) > 0xffff ? 2 : 1);
      if (m.index === prevEnd) continue;
    }
    out.push(m);
    prevEnd = end;
    if (n > 0 && out.length >= n) break;
    if (re.lastIndex > s.length) break;
  }
  return out;
}

/** Regexp.Expand's template: $1, $name, ${name}; $$ is a dollar; a malformed $ is kept. */
function expand(repl: string, m: RegExpExecArray): string {
  return repl.replace(/\$(\$|\{(\w+)\}|(\w+))?/g, (all, _x: string, braced?: string, bare?: string) => {
    if (all === '$$') return '$';
    const name = braced ?? bare;
    if (name === undefined) return '$';
    const v = /^\d+$/.test(name) ? m[Number(name)] : m.groups?.[name];
    return v ?? '';
  });
}

function replaceAll(s: string, re: RegExp, f: (m: RegExpExecArray) => string): string {
  let out = '';
  let last = 0;
  for (const m of findAll(re, s, -1)) {
    out += s.slice(last, m.index) + f(m);
    last = m.index + m[0].length;
  }
  return out + s.slice(last);
}

/** Go's Regexp.Split. */
function split(re: RegExp, src: string, s: string, n: number): string[] {
  if (n === 0) return [];
  if (src.length > 0 && s.length === 0) return [''];
  const out: string[] = [];
  let beg = 0;
  let end = 0;
  for (const m of findAll(re, s, n)) {
    if (n > 0 && out.length === n - 1) break;
    end = m.index;
    if (m.index + m[0].length !== 0) out.push(s.slice(beg, end));
    beg = m.index + m[0].length;
  }
  if (end !== s.length) out.push(s.slice(beg));
  return out;
}

const strs = (v: string[]): unknown[] => typedArray(v, 'string');

const match = fn('string string', (r: string, s: string) => findAll(compile(r), s, 1).length > 0);
const findAllF = fn('string string int', (r: string, s: string, n: bigint) => strs(findAll(compile(r), s, Number(n)).map((m) => m[0])));
const find = fn('string string', (r: string, s: string) => findAll(compile(r), s, 1)[0]?.[0] ?? '');
const replace = fn('string string string', (r: string, s: string, repl: string) => replaceAll(s, compile(r), (m) => expand(repl, m)));
const replaceLiteral = fn('string string string', (r: string, s: string, repl: string) => replaceAll(s, compile(r), () => repl));
const splitF = fn('string string int', (r: string, s: string, n: bigint) => strs(split(compile(r), r, s, Number(n))));

export const regex: Record<string, GoFunc> = {
  // Sprig's regexMatch swallows a bad pattern and answers false.
  regexMatch: fn('string string', (r: string, s: string) => {
    try {
      return findAll(compile(r), s, 1).length > 0;
    } catch {
      return false;
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
