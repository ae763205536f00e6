/** ntfy's Sprig subset (util/sprig/functions.go), by group. */
import type { GoFunc } from '../funcs.js';
import { fail, fn } from '../funcs.js';
import { dates } from './dates.js';
import { defaults } from './defaults.js';
import { dicts } from './dicts.js';
import { encoding } from './encoding.js';
import { lists } from './lists.js';
import { math } from './math.js';
import { paths } from './paths.js';
import { reflect } from './reflect.js';
import { regex } from './regex.js';
import { strings } from './strings.js';
import { url } from './url.js';

export const sprig: Record<string, GoFunc> = {
  ...dates,
  ...strings,
  ...math,
  ...defaults,
  ...reflect,
  ...paths,
  ...encoding,
  ...lists,
  ...dicts,
  ...regex,
  ...url,
  fail: fn('string', (msg: string) => fail(msg)),
};
