/** Character classes of RE2 syntax: Perl (\d \w \s), POSIX ([:alpha:]) and Unicode (\pL, \p{Greek}). */
import type { CharSet } from './ast.js';
import { RegexpError } from './error.js';

export const set = (ranges: [number, number][], neg = false): CharSet => ({ ranges, preds: [], neg });
const DIGIT: [number, number][] = [[48, 57]];
const WORD: [number, number][] = [[48, 57], [65, 90], [97, 122], [95, 95]];
const SPACE: [number, number][] = [[9, 10], [12, 13], [32, 32]];
export const perlClass: Record<string, [number, number][]> = { d: DIGIT, w: WORD, s: SPACE };
export const posix: Record<string, [number, number][]> = {
  alnum: [[48, 57], [65, 90], [97, 122]], alpha: [[65, 90], [97, 122]], ascii: [[0, 127]], blank: [[9, 9], [32, 32]],
  cntrl: [[0, 31], [127, 127]], digit: DIGIT, graph: [[33, 126]], lower: [[97, 122]], print: [[32, 126]],
  punct: [[33, 47], [58, 64], [91, 96], [123, 126]], space: [[9, 13], [32, 32]], upper: [[65, 90]], word: WORD, xdigit: [[48, 57], [65, 70], [97, 102]],
};
export const simpleEscapes: Record<string, number> = { a: 7, f: 12, t: 9, n: 10, r: 13, v: 11 };

/** A Unicode class such as L, Lu, Greek, via the JS engine's property tables. */
export function unicodeClass(name: string, whole: string): (cp: number) => boolean {
  if (name === 'Any') return () => true;
  let re: RegExp;
  try {
    re = new RegExp(`^\\p{${name}}$`, 'u');
  } catch {
    try {
      re = new RegExp(`^\\p{Script=${name}}$`, 'u');
    } catch {
      throw new RegexpError('invalid character class range', whole);
    }
  }
  return (cp) => re.test(String.fromCodePoint(cp));
}
