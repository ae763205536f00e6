/** Go's text/template executor (text/template/exec.go): walks the parse tree against data. */
import type { IfNode, Node, RangeNode } from './ast.js';
import { TemplateError } from './errors.js';
import { ValueTooLarge } from './bounds.js';
import { WorkBudget, WorkExhausted, charging, copied } from './budget.js';
import { Evaluator } from './eval.js';
import { formatV } from './printf.js';
import { Int64, byteLen, intOf, isMap, sortedKeys, truth } from './values.js';

const NORMAL = 0;
const BREAK = 1;
const CONTINUE = 2;
type Flow = typeof NORMAL | typeof BREAK | typeof CONTINUE;

/** One rendering: output, limits and the walk over the tree. */
export class State extends Evaluator {
  private out = '';
  private outBytes = 0;
  private readonly budget = new WorkBudget(this.opts.deadline, this.opts.maxWork);

  run(root: Node[], data: unknown): string {
    // Go's reflect.ValueOf(nil) is "no value", not a nil interface.
    if (data === null) data = undefined;
    this.vars.push({ name: '$', value: data });
    try {
      charging(this.budget, () => this.walkList(data, root));
    } catch (e) {
      if (e instanceof TemplateError) throw e;
      if (e instanceof WorkExhausted) throw new TemplateError('timeout', this.opts.errorAt(this.pos, this.context, e.message));
      if (e instanceof ValueTooLarge) throw new TemplateError('too-large', this.opts.errorAt(this.pos, this.context, `printed ${e.message}`));
      const msg = e instanceof Error ? e.message : String(e);
      throw new TemplateError('exec', this.opts.errorAt(this.pos, this.context, msg));
    }
    return this.out;
  }

  /** Charges one node or loop iteration to the render's budget, which watches the deadline. */
  private tick(): void {
    this.budget.spend(1);
  }

  /** Appends to the output, refused before the concatenation when it would pass maxOutput. */
  private write(s: string): void {
    copied(s.length);
    const bytes = byteLen(s);
    if (this.outBytes + bytes > this.opts.maxOutput) {
      throw new TemplateError('too-large', this.opts.errorAt(this.pos, this.context, `template output exceeds ${this.opts.maxOutput} bytes`));
    }
    this.out += s;
    this.outBytes += bytes;
  }

  private walkList(dot: unknown, list: Node[]): Flow {
    for (const n of list) {
      const f = this.walk(dot, n);
      if (f !== NORMAL) return f;
    }
    return NORMAL;
  }

  private walk(dot: unknown, n: Node): Flow {
    this.tick();
    switch (n.k) {
      case 'text':
        this.write(n.text);
        return NORMAL;
      case 'action': {
        this.at(n.pos, n.pipe);
        const v = this.evalPipeline(dot, n.pipe);
        if (n.pipe.decl.length === 0) this.write(v === undefined ? '<no value>' : formatV(v));
        return NORMAL;
      }
      case 'if':
      case 'with':
        return this.walkIfOrWith(dot, n);
      case 'range':
        return this.walkRange(dot, n);
      case 'break':
        return BREAK;
      case 'continue':
        return CONTINUE;
    }
  }

  private walkIfOrWith(dot: unknown, n: IfNode): Flow {
    const mark = this.vars.length;
    try {
      this.at(n.pos, n.pipe);
      const v = this.evalPipeline(dot, n.pipe);
      if (truth(v)) return this.walkList(n.k === 'with' ? v : dot, n.list);
      if (n.elseList !== null) return this.walkList(dot, n.elseList);
      return NORMAL;
    } finally {
      this.vars.length = mark;
    }
  }

  private walkRange(dot: unknown, r: RangeNode): Flow {
    this.at(r.pos, r.pipe);
    const markOuter = this.vars.length;
    const val = this.evalPipeline(dot, r.pipe);
    const mark = this.vars.length;
    const decl = r.pipe.decl;
    const one = (index: unknown, elem: unknown): Flow => {
      this.tick();
      if (decl.length > 0) {
        if (r.pipe.isAssign) this.setVar(decl[0] ?? '', decl.length > 1 ? index : elem);
        else this.setTopVar(1, elem);
      }
      if (decl.length > 1) {
        if (r.pipe.isAssign) this.setVar(decl[1] ?? '', elem);
        else this.setTopVar(2, index);
      }
      const f = this.walkList(elem, r.list);
      this.vars.length = mark;
      return f;
    };
    let ran = false;
    try {
      if (Array.isArray(val)) {
        for (let i = 0; i < val.length; i++) {
          ran = true;
          if (one(BigInt(i), val[i]) === BREAK) break;
        }
      } else if (isMap(val)) {
        for (const k of sortedKeys(val)) {
          ran = true;
          if (one(k, val[k]) === BREAK) break;
        }
      } else if (intOf(val) !== undefined) {
        if (decl.length > 1) this.fail(`can't use ${formatV(val)} to iterate over more than one variable`);
        const n = intOf(val) ?? 0n;
        const wrapInt = typeof val === 'bigint' ? (i: bigint): unknown => i : (i: bigint): unknown => new Int64(i);
        for (let i = 0n; i < n; i++) {
          ran = true;
          const v = wrapInt(i);
          if (one(v, v) === BREAK) break;
        }
      } else if (val !== undefined && val !== null) {
        this.fail(`range can't iterate over ${formatV(val)}`);
      }
      if (!ran && r.elseList !== null) return this.walkList(dot, r.elseList);
      return NORMAL;
    } finally {
      this.vars.length = markOuter;
    }
  }
}
