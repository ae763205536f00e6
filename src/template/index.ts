/**
 * Go text/template with ntfy's Sprig subset, for message templates that must render exactly
 * as ntfy renders them. No knowledge of HTTP: compile once, render per request.
 *
 * Data is what JSON.parse gives, which matches ntfy unmarshalling into `any`: JSON numbers are
 * Go float64 (JS number), so 1000000 prints as 1e+06. Go ints (literals, len, until...) are JS
 * bigint and Sprig's int64 results are Int64; see values.ts for the whole value model. Where
 * Go's "Local" time zone is used (date, toDate...), Tocsin uses UTC so output does not depend
 * on the host. FUNCTIONS.md lists the functions and what is not supported.
 *
 * Layout: lexer.ts → parser.ts build the tree (ast.ts); exec.ts walks it and eval.ts evaluates
 * pipelines, calling builtins.ts and sprig/ through the typed declarations of funcs.ts; printf.ts
 * and floatfmt.ts are Go's fmt; timefmt/timeparse/timezone are Go's time; regexp/ is a
 * linear-time RE2 engine; bounds.ts holds the size limits and budget.ts the work budget;
 * cache.ts memoises compile().
 */
import type { Node } from './ast.js';
import { TemplateError } from './errors.js';
import { State } from './exec.js';
import { functions } from './functions.js';
import { ParseFailure, parse } from './parser.js';
import { DEFAULT_WORK } from './budget.js';

export { TemplateError } from './errors.js';
export { goTrimSpace } from './space.js';
export { typedArray } from './values.js';
export type { TemplateErrorCode } from './errors.js';

/** Output cap: ntfy's message limit is 4 KiB, titles are smaller; 64 KiB leaves room for attachments-as-text. */
export const DEFAULT_MAX_OUTPUT = 64 * 1024;
/** ntfy's templateMaxExecutionTime (server.go). */
export const DEFAULT_TIMEOUT_MS = 100;

export interface RenderLimits {
  /** Bytes of UTF-8 output after which rendering fails with 'too-large'. */
  maxOutput?: number;
  /** Milliseconds after which rendering fails with 'timeout'. */
  timeoutMs?: number;
  /** Units of work (budget.ts) after which rendering fails with 'timeout'. */
  maxWork?: number;
}

export interface Template {
  readonly name: string;
  render(data: unknown, limits?: RenderLimits): string;
}

/** ntfy's templateDisallowedRegex, plus block (which defines a template like define). */
const disallowed = /\{\{-?[\t\n\f\r ]*(call|template|define|block)\b/; // RE2's \s is these five

function lineCol(text: string, pos: number): { line: number; col: number } {
  let line = 1;
  let start = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < pos; i = text.indexOf('\n', i + 1)) {
    line++;
    start = i + 1;
  }
  return { line, col: pos - start };
}

class Compiled implements Template {
  constructor(
    readonly name: string,
    private readonly text: string,
    private readonly root: Node[],
  ) {}

  render(data: unknown, limits: RenderLimits = {}): string {
    const state = new State({
      maxOutput: limits.maxOutput ?? DEFAULT_MAX_OUTPUT,
      deadline: Date.now() + (limits.timeoutMs ?? DEFAULT_TIMEOUT_MS),
      maxWork: limits.maxWork ?? DEFAULT_WORK,
      funcs: functions,
      errorAt: (pos, context, msg) => {
        const { line, col } = lineCol(this.text, pos);
        const ctx = context.length > 20 ? context.slice(0, 20) + '...' : context;
        return `template: ${this.name}:${line}:${col}: executing ${JSON.stringify(this.name)} at <${ctx}>: ${msg}`;
      },
    });
    return state.run(this.root, data);
  }
}

/** Parses a template; throws TemplateError 'disallowed' for call/template/define/block, 'parse' for syntax errors. */
export function compile(text: string, name = ''): Template {
  const bad = disallowed.exec(text);
  if (bad !== null) {
    const { line, col } = lineCol(text, bad.index);
    throw new TemplateError('disallowed', `template: ${name}:${line}:${col}: ${bad[1]} is not allowed in templates`);
  }
  try {
    return new Compiled(name, text, parse(text, (f) => functions.has(f)));
  } catch (e) {
    if (!(e instanceof ParseFailure)) throw e;
    const { line, col } = lineCol(text, e.pos);
    throw new TemplateError('parse', `template: ${name}:${line}:${col}: ${e.message}`);
  }
}
