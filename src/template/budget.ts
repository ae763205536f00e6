/**
 * The work one render may do. ntfy bounds a render by its 100 ms deadline alone; here every
 * executed node and every walk over a value's structure (printing, JSON, deepEqual, list and
 * map scans, regex steps) also charges one budget per render, which looks at the clock as it
 * is spent. A value built from shared references (`$x = list $x $x` forty times) is forty lists
 * to build but 2^40 nodes to walk, so a walk must be stopped by what it visits, and no single
 * function call may run long between two looks at the clock.
 *
 * A unit is about one node visited, one character looked at in a JS loop, or COPIED_PER_UNIT
 * characters or elements copied by a native operation: 100-200 ns here.
 */
import { RenderLimit } from './bounds.js';

/**
 * Units one render may spend. The built-in templates spend a few hundred; this machine's
 * engine spends about DEFAULT_WORK in ntfy's 100 ms, so the deadline and the budget stop a
 * runaway render at about the same point, and the budget still does on a stalled clock.
 */
export const DEFAULT_WORK = 1_000_000;
/** Characters or list elements one unit pays for where a native operation (slice, search, spread) copies or scans them. */
export const COPIED_PER_UNIT = 256;
/** Units between two looks at the clock: well under a millisecond of work. */
const CLOCK_EVERY = 1024;

/** The budget is spent or the deadline has passed; the executor answers 'timeout'. */
export class WorkExhausted extends RenderLimit {}

export class WorkBudget {
  private untilClock = CLOCK_EVERY;

  constructor(
    private readonly deadline: number,
    private left: number,
  ) {}

  spend(units: number): void {
    this.left -= units;
    this.untilClock -= units;
    if (this.untilClock > 0 && this.left >= 0) return;
    if (this.left < 0) throw new WorkExhausted('template execution exceeded its work budget');
    this.untilClock = CLOCK_EVERY;
    if (Date.now() > this.deadline) throw new WorkExhausted('template execution timed out');
  }
}

/**
 * The render in progress. Rendering is synchronous, so there is only ever one; holding it here
 * spares threading a budget through every fmt, JSON and Sprig helper, and covers the helpers
 * that error messages call too. Outside a render (unit tests of a helper) nothing is charged.
 */
let active: WorkBudget | undefined;

/** Charges the render in progress. */
export function spend(units = 1): void {
  active?.spend(units);
}

/** Charges a native copy or scan of n characters or list elements. */
export function copied(n: number): void {
  if (active !== undefined) active.spend(1 + Math.floor(n / COPIED_PER_UNIT));
}

/** Characters between two calls of scanned() in a JS loop over a string: about 0.1-0.4 ms of work. */
export const SCAN_STEP = 1024;

/**
 * Charges SCAN_STEP characters looked at one by one in JS (quoting, escaping, title case,
 * base32, regex subjects): each costs about a node visit, a hundred times what a native string
 * operation does, and a call on a megabyte string meets the clock as it goes rather than after.
 */
export function scanned(): void {
  spend(SCAN_STEP);
}

/** Runs f with budget as the render in progress. */
export function charging<T>(budget: WorkBudget, f: () => T): T {
  const outer = active;
  active = budget;
  try {
    return f();
  } finally {
    active = outer;
  }
}
