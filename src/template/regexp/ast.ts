/** Regular expression syntax tree (RE2 syntax, as Go's regexp/syntax parses it). */

/** A set of code points: ranges plus named predicates (Unicode classes), optionally negated. */
export interface CharSet {
  ranges: [number, number][];
  preds: ((cp: number) => boolean)[];
  neg: boolean;
}

export type Re =
  | { t: 'empty' }
  | { t: 'char'; set: CharSet; fold: boolean }
  | { t: 'assert'; kind: 'bol' | 'eol' | 'bot' | 'eot' | 'wb' | 'nwb' }
  | { t: 'cat'; subs: Re[] }
  | { t: 'alt'; subs: Re[] }
  | { t: 'rep'; sub: Re; min: number; max: number; greedy: boolean } // max -1: unbounded
  | { t: 'group'; sub: Re; index: number }; // index -1: non-capturing

export const inSet = (set: CharSet, cp: number): boolean => {
  let hit = false;
  for (const [lo, hi] of set.ranges) {
    if (cp >= lo && cp <= hi) {
      hit = true;
      break;
    }
  }
  if (!hit) for (const p of set.preds) if (p(cp)) hit = true;
  return hit !== set.neg;
};
