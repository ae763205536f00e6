/** Every function a template can call: Go's builtins plus ntfy's Sprig subset. */
import { builtins } from './builtins.js';
import type { GoFunc } from './funcs.js';
import { sprig } from './sprig/index.js';

/** Sprig comes last: Go looks up a template's own functions before its builtins, so Sprig's slice wins. */
export const functions: ReadonlyMap<string, GoFunc> = new Map(Object.entries({ ...builtins, ...sprig }));
