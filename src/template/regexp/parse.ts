/** A parser for Go's RE2 regular expression syntax (regexp/syntax), producing ast.ts trees. */
import type { CharSet, Re } from './ast.js';
import { perlClass, posix, set, simpleEscapes, unicodeClass } from './classes.js';
import { RegexpError } from './error.js';


interface Flags {
  i: boolean;
  m: boolean;
  s: boolean;
  U: boolean;
}

export interface Parsed {
  re: Re;
  groups: number; // capture groups, not counting the whole match
  names: Map<string, number>;
}

export function parseRegexp(src: string): Parsed {
  return new Parser(src).parseAll();
}

class Parser {
  private readonly cps: number[];
  private pos = 0;
  private groups = 0;
  private readonly names = new Map<string, number>();

  constructor(private readonly src: string) {
    this.cps = Array.from(src, (c) => c.codePointAt(0) ?? 0);
  }

  parseAll(): Parsed {
    const re = this.alt({ i: false, m: false, s: false, U: false }, 0);
    if (this.pos < this.cps.length) throw new RegexpError('unexpected )', this.src);
    return { re, groups: this.groups, names: this.names };
  }

  private peek(off = 0): string | undefined {
    const cp = this.cps[this.pos + off];
    return cp === undefined ? undefined : String.fromCodePoint(cp);
  }

  private rest(from: number): string {
    return String.fromCodePoint(...this.cps.slice(from, this.pos));
  }

  private alt(f: Flags, depth: number): Re {
    const subs: Re[] = [this.cat(f, depth)];
    while (this.peek() === '|') {
      this.pos++;
      subs.push(this.cat(f, depth));
    }
    return subs.length === 1 ? (subs[0] as Re) : { t: 'alt', subs };
  }

  private cat(f: Flags, depth: number): Re {
    const subs: Re[] = [];
    for (;;) {
      const c = this.peek();
      if (c === undefined || c === '|' || (c === ')' && depth > 0)) break;
      if (c === ')') throw new RegexpError('unexpected )', this.src);
      const start = this.pos;
      let atom = this.atom(f, depth);
      if (atom === null) continue; // a flag group like (?i) changes f and matches nothing
      atom = this.repeat(atom, f, start);
      subs.push(atom);
    }
    return subs.length === 1 ? (subs[0] as Re) : subs.length === 0 ? { t: 'empty' } : { t: 'cat', subs };
  }

  private repeat(atom: Re, f: Flags, start: number): Re {
    let repeated = false;
    for (;;) {
      const c = this.peek();
      let min: number;
      let max: number;
      const opStart = this.pos;
      if (c === '*' || c === '+' || c === '?') {
        this.pos++;
        [min, max] = c === '*' ? [0, -1] : c === '+' ? [1, -1] : [0, 1];
      } else if (c === '{') {
        const m = /^\{(\d+)(,(\d*))?\}/.exec(String.fromCodePoint(...this.cps.slice(this.pos, this.pos + 20)));
        if (m === null) return atom; // a literal {
        this.pos += m[0].length;
        min = Number(m[1]);
        max = m[2] === undefined ? min : m[3] === '' ? -1 : Number(m[3]);
        if (min > 1000 || max > 1000 || (max >= 0 && max < min)) throw new RegexpError('invalid repeat count', this.rest(opStart));
      } else return atom;
      if (repeated) throw new RegexpError('invalid nested repetition operator', this.rest(opStart - 1));
      if (start === opStart) throw new RegexpError('missing argument to repetition operator', this.rest(opStart));
      let greedy = true;
      if (this.peek() === '?') {
        this.pos++;
        greedy = false;
      }
      if (f.U) greedy = !greedy;
      atom = { t: 'rep', sub: atom, min, max, greedy };
      repeated = true;
    }
  }

  private atom(f: Flags, depth: number): Re | null {
    const start = this.pos;
    const c = this.peek() ?? '';
    this.pos++;
    switch (c) {
      case '(':
        return this.group(f, depth, start);
      case '[':
        return { t: 'char', set: this.charClass(start), fold: f.i };
      case '.':
        return { t: 'char', set: set(f.s ? [[0, 0x10ffff]] : [[0, 9], [11, 0x10ffff]]), fold: false };
      case '^':
        return { t: 'assert', kind: f.m ? 'bol' : 'bot' };
      case '$':
        return { t: 'assert', kind: f.m ? 'eol' : 'eot' };
      case '\\':
        return this.escape(f, start);
      case '*':
      case '+':
      case '?':
        throw new RegexpError('missing argument to repetition operator', c);
    }
    const cp = this.cps[start] ?? 0;
    return { t: 'char', set: set([[cp, cp]]), fold: f.i };
  }

  private group(f: Flags, depth: number, start: number): Re | null {
    let index = -1;
    const inner = { ...f };
    if (this.peek() === '?') {
      const m = /^\?(?:P?<([A-Za-z0-9_]+)>|([imsU]*)(?:-([imsU]*))?(:|\)))/.exec(String.fromCodePoint(...this.cps.slice(this.pos, this.pos + 40)));
      if (m === null) throw new RegexpError('invalid or unsupported Perl syntax', this.rest(start) + (this.peek(1) ?? ''));
      this.pos += m[0].length;
      if (m[1] !== undefined) {
        index = ++this.groups;
        if (!this.names.has(m[1])) this.names.set(m[1], index);
      } else {
        const target = m[4] === ')' ? f : inner;
        for (const k of m[2] ?? '') target[k as keyof Flags] = true;
        for (const k of m[3] ?? '') target[k as keyof Flags] = false;
        if (m[4] === ')') return null;
      }
    } else index = ++this.groups;
    const sub = this.alt(inner, depth + 1);
    if (this.peek() !== ')') throw new RegexpError('missing closing )', this.src);
    this.pos++;
    return { t: 'group', sub, index };
  }

  private escape(f: Flags, start: number): Re {
    const c = this.peek();
    if (c === undefined) throw new RegexpError('trailing backslash at end of expression', '');
    this.pos++;
    switch (c) {
      case 'A':
        return { t: 'assert', kind: 'bot' };
      case 'z':
        return { t: 'assert', kind: 'eot' };
      case 'b':
        return { t: 'assert', kind: 'wb' };
      case 'B':
        return { t: 'assert', kind: 'nwb' };
      case 'Q': {
        const subs: Re[] = [];
        while (this.pos < this.cps.length && !(this.peek() === '\\' && this.peek(1) === 'E')) {
          const cp = this.cps[this.pos++] ?? 0;
          subs.push({ t: 'char', set: set([[cp, cp]]), fold: f.i });
        }
        if (this.pos < this.cps.length) this.pos += 2;
        return { t: 'cat', subs };
      }
    }
    this.pos = start;
    return { t: 'char', set: this.classEscape(), fold: f.i };
  }

  /** An escape that denotes a set of characters (also inside [...]). pos is at the backslash. */
  private classEscape(): CharSet {
    const start = this.pos;
    this.pos++;
    const c = this.peek() ?? '';
    this.pos++;
    const lower = c.toLowerCase();
    if (perlClass[lower] !== undefined) return set(perlClass[lower], c !== lower);
    if (c === 'p' || c === 'P') {
      let name = this.peek() ?? '';
      this.pos++;
      if (name === '{') {
        const end = this.cps.indexOf(125, this.pos);
        if (end < 0) throw new RegexpError('invalid character class range', this.rest(start));
        name = String.fromCodePoint(...this.cps.slice(this.pos, end));
        this.pos = end + 1;
      }
      const neg = name.startsWith('^');
      return { ranges: [], preds: [unicodeClass(neg ? name.slice(1) : name, this.rest(start))], neg: (c === 'P') !== neg };
    }
    if (simpleEscapes[c] !== undefined) return set([[simpleEscapes[c] ?? 0, simpleEscapes[c] ?? 0]]);
    if (c === 'x') {
      let hex: string;
      if (this.peek() === '{') {
        const end = this.cps.indexOf(125, this.pos);
        hex = end < 0 ? '' : String.fromCodePoint(...this.cps.slice(this.pos + 1, end));
        this.pos = end + 1;
      } else {
        hex = String.fromCodePoint(...this.cps.slice(this.pos, this.pos + 2));
        this.pos += 2;
      }
      const cp = /^[0-9a-fA-F]{1,8}$/.test(hex) ? parseInt(hex, 16) : NaN;
      if (!(cp <= 0x10ffff)) throw new RegexpError('invalid escape sequence', this.rest(start));
      return set([[cp, cp]]);
    }
    if (/^[0-7]$/.test(c)) {
      // \0 takes up to two more octal digits; \1-\7 need one (alone they would be backreferences).
      if (c !== '0' && !/^[0-7]$/.test(this.peek() ?? '')) throw new RegexpError('invalid escape sequence', this.rest(start));
      let v = Number(c);
      for (let i = 1; i < 3; i++) {
        const d = this.peek();
        if (d === undefined || !/^[0-7]$/.test(d)) break;
        v = v * 8 + Number(d);
        this.pos++;
      }
      return set([[v, v]]);
    }
    const cp = c.codePointAt(0) ?? 0;
    if (cp < 128 && !/[0-9A-Za-z]/.test(c)) return set([[cp, cp]]);
    throw new RegexpError('invalid escape sequence', this.rest(start));
  }

  /** [...]; pos is just after the [. */
  private charClass(start: number): CharSet {
    const cls: CharSet = { ranges: [], preds: [], neg: false };
    if (this.peek() === '^') {
      cls.neg = true;
      this.pos++;
    }
    let first = true;
    for (;;) {
      const c = this.peek();
      if (c === undefined) throw new RegexpError('missing closing ]', this.rest(start));
      if (c === ']' && !first) {
        this.pos++;
        return cls;
      }
      first = false;
      if (c === '[' && this.peek(1) === ':') {
        const m = /^\[:(\^?)([a-z]+):\]/.exec(String.fromCodePoint(...this.cps.slice(this.pos, this.pos + 12)));
        const ranges = m === null ? undefined : posix[m[2] ?? ''];
        if (m !== null && ranges !== undefined) {
          this.pos += m[0].length;
          if (m[1] === '') cls.ranges.push(...ranges);
          else cls.preds.push((cp) => !ranges.some(([lo, hi]) => cp >= lo && cp <= hi));
          continue;
        }
      }
      const lo = this.classAtom(cls, start);
      if (lo === undefined) continue;
      if (this.peek() === '-' && this.peek(1) !== ']' && this.peek(1) !== undefined) {
        const before = this.pos;
        this.pos++;
        const hi = this.classAtom(cls, start);
        if (hi === undefined || hi < lo) throw new RegexpError('invalid character class range', this.rest(before - 1));
        cls.ranges.push([lo, hi]);
      } else cls.ranges.push([lo, lo]);
    }
  }

  /** One character of a class, or undefined when an escape added a whole set to cls. */
  private classAtom(cls: CharSet, start: number): number | undefined {
    if (this.peek() !== '\\') return this.cps[this.pos++];
    if (this.pos + 1 >= this.cps.length) throw new RegexpError('missing closing ]', this.rest(start));
    const s = this.classEscape();
    if (s.preds.length === 0 && !s.neg && s.ranges.length === 1 && s.ranges[0]?.[0] === s.ranges[0]?.[1]) return s.ranges[0]?.[0];
    if (s.neg) cls.preds.push((cp) => !s.ranges.some(([lo, hi]) => cp >= lo && cp <= hi) && !s.preds.some((p) => p(cp)));
    else {
      cls.ranges.push(...s.ranges);
      cls.preds.push(...s.preds);
    }
    return undefined;
  }
}
