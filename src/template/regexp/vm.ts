/**
 * A Pike VM for RE2 programs: linear in input length times program size, so a pattern from a
 * template cannot backtrack exponentially (JS RegExp can, and cannot be interrupted). Matches
 * are leftmost-first like Go's regexp.
 */
import { spend } from '../budget.js';
import { inSet, type CharSet, type Re } from './ast.js';
import { RegexpError } from './error.js';
import { parseRegexp } from './parse.js';

type Inst =
  | { op: 'char'; set: CharSet; fold: boolean }
  | { op: 'split'; x: number; y: number } // x preferred
  | { op: 'jmp'; x: number }
  | { op: 'save'; n: number }
  | { op: 'assert'; kind: 'bol' | 'eol' | 'bot' | 'eot' | 'wb' | 'nwb' }
  | { op: 'match' };

/** RE2 refuses programs beyond a size; this bounds the per-character work too. */
const MAX_INSTS = 10_000;

export interface Program {
  insts: Inst[];
  ncap: number; // capture slots: 2 × (groups + 1)
  names: Map<string, number>;
}

export function compileRegexp(src: string): Program {
  const { re, groups, names } = parseRegexp(src);
  const insts: Inst[] = [{ op: 'save', n: 0 }];
  const emit = (i: Inst): Inst => {
    if (insts.length >= MAX_INSTS) throw new RegexpError('expression too large', src);
    insts.push(i);
    return i;
  };
  /** x? : try x first when greedy. */
  const quest = (body: () => void, greedy: boolean): void => {
    const split = emit({ op: 'split', x: insts.length + 1, y: 0 }) as Extract<Inst, { op: 'split' }>;
    body();
    split.y = insts.length;
    if (!greedy) [split.x, split.y] = [split.y, split.x];
  };
  /** x+ : the body, then a split back to it. */
  const plus = (sub: Re, greedy: boolean): void => {
    const loop = insts.length;
    gen(sub);
    const split = emit({ op: 'split', x: loop, y: 0 }) as Extract<Inst, { op: 'split' }>;
    split.y = insts.length;
    if (!greedy) [split.x, split.y] = [split.y, split.x];
  };
  const gen = (r: Re): void => {
    switch (r.t) {
      case 'empty':
        return;
      case 'char':
        emit({ op: 'char', set: r.set, fold: r.fold });
        return;
      case 'assert':
        emit({ op: 'assert', kind: r.kind });
        return;
      case 'cat':
        r.subs.forEach(gen);
        return;
      case 'group':
        if (r.index >= 0) emit({ op: 'save', n: 2 * r.index });
        gen(r.sub);
        if (r.index >= 0) emit({ op: 'save', n: 2 * r.index + 1 });
        return;
      case 'alt': {
        const jumps: Inst[] = [];
        r.subs.forEach((sub, i) => {
          if (i < r.subs.length - 1) {
            const split = { op: 'split', x: insts.length + 1, y: 0 } as Extract<Inst, { op: 'split' }>;
            emit(split);
            gen(sub);
            const j = { op: 'jmp', x: 0 } as Extract<Inst, { op: 'jmp' }>;
            emit(j);
            jumps.push(j);
            split.y = insts.length;
          } else gen(sub);
        });
        for (const j of jumps) (j as { x: number }).x = insts.length;
        return;
      }
      case 'rep':
        // Shapes follow Go's compiler and simplifier, since priorities decide which match wins.
        if (r.max < 0) {
          for (let i = 1; i < r.min; i++) gen(r.sub);
          if (r.min > 0) plus(r.sub, r.greedy);
          else if (nullable(r.sub)) quest(() => plus(r.sub, r.greedy), r.greedy); // golang.org/issue/46123
          else {
            const loop = insts.length;
            const split = emit({ op: 'split', x: 0, y: 0 }) as Extract<Inst, { op: 'split' }>;
            gen(r.sub);
            emit({ op: 'jmp', x: loop });
            [split.x, split.y] = r.greedy ? [loop + 1, insts.length] : [insts.length, loop + 1];
          }
        } else {
          for (let i = 0; i < r.min; i++) gen(r.sub);
          for (let i = r.min; i < r.max; i++) quest(() => gen(r.sub), r.greedy);
        }
        return;
    }
  };
  gen(re);
  emit({ op: 'save', n: 1 });
  emit({ op: 'match' });
  return { insts, ncap: 2 * (groups + 1), names };
}

function nullable(r: Re): boolean {
  switch (r.t) {
    case 'char':
      return false;
    case 'cat':
      return r.subs.every(nullable);
    case 'alt':
      return r.subs.some(nullable);
    case 'rep':
      return r.min === 0 || nullable(r.sub);
    case 'group':
      return nullable(r.sub);
  }
  return true;
}

const isWord = (cp: number | undefined): boolean =>
  cp !== undefined && ((cp >= 48 && cp <= 57) || (cp >= 65 && cp <= 90) || (cp >= 97 && cp <= 122) || cp === 95);

function fold(cp: number): number[] {
  const c = String.fromCodePoint(cp);
  const out = [cp];
  for (const v of [c.toLowerCase(), c.toUpperCase()]) {
    const arr = Array.from(v);
    if (arr.length === 1) out.push(arr[0]?.codePointAt(0) ?? cp);
  }
  return out;
}

interface Thread {
  pc: number;
  caps: number[];
}

/**
 * Leftmost-first match in cps starting the search at `from`; capture positions are code point
 * indices. Work is O(input × program), charged to the render (budget.ts) as it goes.
 */
export function execProgram(p: Program, cps: number[], from: number): number[] | null {
  const n = cps.length;
  let clist: Thread[] = [];
  let nlist: Thread[] = [];
  const seen = new Int32Array(p.insts.length).fill(-1);
  let matched: number[] | null = null;
  const add = (list: Thread[], pc: number, caps: number[], pos: number, gen: number): void => {
    if (seen[pc] === gen) return;
    seen[pc] = gen;
    spend(1); // a step costs about what an executed node does
    const inst = p.insts[pc] as Inst;
    switch (inst.op) {
      case 'jmp':
        add(list, inst.x, caps, pos, gen);
        return;
      case 'split':
        add(list, inst.x, caps, pos, gen);
        add(list, inst.y, caps, pos, gen);
        return;
      case 'save': {
        const c = caps.slice();
        c[inst.n] = pos;
        add(list, pc + 1, c, pos, gen);
        return;
      }
      case 'assert': {
        const before = cps[pos - 1];
        const after = cps[pos];
        let ok: boolean;
        switch (inst.kind) {
          case 'bot':
            ok = pos === 0;
            break;
          case 'eot':
            ok = pos === n;
            break;
          case 'bol':
            ok = pos === 0 || before === 10;
            break;
          case 'eol':
            ok = pos === n || after === 10;
            break;
          default:
            ok = (isWord(before) !== isWord(after)) === (inst.kind === 'wb');
        }
        if (ok) add(list, pc + 1, caps, pos, gen);
        return;
      }
      default:
        list.push({ pc, caps });
    }
  };
  const empty = new Array<number>(p.ncap).fill(-1);
  for (let pos = from; pos <= n; pos++) {
    // Threads for this position were marked with generation pos; the new start thread comes last.
    if (matched === null) add(clist, 0, empty, pos, pos);
    const cp = cps[pos];
    for (const t of clist) {
      const inst = p.insts[t.pc] as Inst;
      if (inst.op === 'match') {
        matched = t.caps;
        break; // lower-priority threads lose to this match
      }
      if (inst.op === 'char' && cp !== undefined && (inst.fold ? fold(cp).some((c) => inSet(inst.set, c)) : inSet(inst.set, cp))) {
        add(nlist, t.pc + 1, t.caps, pos + 1, pos + 1);
      }
    }
    [clist, nlist] = [nlist, []];
    if (matched !== null && clist.length === 0) break;
  }
  return matched;
}
