/** Go's text/template executor (text/template/exec.go): walks the parse tree against data. */
import { argString, pipeString, type Arg, type Command, type IfNode, type Node, type Pipe, type RangeNode } from './ast.js';
import { TemplateError } from './errors.js';
import { goTypeName, type GoFunc, type ParamType } from './funcs.js';
import { formatV } from './printf.js';
import { timeMethod } from './timemethods.js';
import { GoTime, Int64, byteLen, elemOf, goType, intOf, isMap, sortedKeys, truth } from './values.js';

/**
 * Longest string or list a function may return. Go has no such bound; without it a template
 * that doubles a string in a loop exhausts memory before the deadline is checked.
 */
export const MAX_VALUE = 1 << 20;

/** Marks "no piped value", as distinct from a piped "no value" (undefined). */
const MISSING = Symbol('missing');
type Final = unknown;

const NORMAL = 0;
const BREAK = 1;
const CONTINUE = 2;
type Flow = typeof NORMAL | typeof BREAK | typeof CONTINUE;

export interface ExecOptions {
  readonly maxOutput: number;
  readonly deadline: number;
  readonly funcs: ReadonlyMap<string, GoFunc>;
  /** Builds the positioned error message for an exec failure at an input offset. */
  readonly errorAt: (pos: number, context: string, msg: string) => string;
}

/** Thrown inside the walk; converted to TemplateError at the top with position. */
export class ExecFailure extends Error {}

export class State {
  private out = '';
  private outBytes = 0;
  private vars: { name: string; value: unknown }[] = [];
  private steps = 0;
  private pos = 0;
  private context = '';

  constructor(private readonly opts: ExecOptions) {}

  run(root: Node[], data: unknown): string {
    // Go's reflect.ValueOf(nil) is "no value", not a nil interface.
    if (data === null) data = undefined;
    this.vars.push({ name: '$', value: data });
    try {
      this.walkList(data, root);
    } catch (e) {
      if (e instanceof TemplateError) throw e;
      const msg = e instanceof Error ? e.message : String(e);
      throw new TemplateError('exec', this.opts.errorAt(this.pos, this.context, msg));
    }
    return this.out;
  }

  /** Go's s.errorf: fails at the current node. */
  fail(msg: string): never {
    throw new ExecFailure(msg);
  }

  private at(pos: number, context: string): void {
    this.pos = pos;
    this.context = context;
  }

  /** Counts work and enforces the deadline; called once per node and per loop iteration. */
  tick(): void {
    if ((++this.steps & 255) === 0 && Date.now() > this.opts.deadline) {
      throw new TemplateError('exec', this.opts.errorAt(this.pos, this.context, 'template execution timed out'));
    }
  }

  private write(s: string): void {
    this.out += s;
    this.outBytes += byteLen(s);
    if (this.outBytes > this.opts.maxOutput) {
      throw new TemplateError('too-large', this.opts.errorAt(this.pos, this.context, `template output exceeds ${this.opts.maxOutput} bytes`));
    }
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
        this.at(n.pos, pipeString(n.pipe));
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
      this.at(n.pos, pipeString(n.pipe));
      const v = this.evalPipeline(dot, n.pipe);
      if (truth(v)) return this.walkList(n.k === 'with' ? v : dot, n.list);
      if (n.elseList !== null) return this.walkList(dot, n.elseList);
      return NORMAL;
    } finally {
      this.vars.length = mark;
    }
  }

  private walkRange(dot: unknown, r: RangeNode): Flow {
    this.at(r.pos, pipeString(r.pipe));
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

  private setVar(name: string, value: unknown): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const v = this.vars[i];
      if (v !== undefined && v.name === name) {
        v.value = value;
        return;
      }
    }
    this.fail(`undefined variable: ${name}`);
  }

  private setTopVar(n: number, value: unknown): void {
    const v = this.vars[this.vars.length - n];
    if (v !== undefined) v.value = value;
  }

  private varValue(name: string): unknown {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const v = this.vars[i];
      if (v !== undefined && v.name === name) return v.value;
    }
    return this.fail(`undefined variable: ${name}`);
  }

  evalPipeline(dot: unknown, pipe: Pipe): unknown {
    let value: Final = MISSING;
    for (const cmd of pipe.cmds) {
      value = this.evalCommand(dot, cmd, value);
      // Go unwraps interface values here, so a nil interface becomes "no value".
      if (value === null) value = undefined;
    }
    for (const name of pipe.decl) {
      if (pipe.isAssign) this.setVar(name, value);
      else this.vars.push({ name, value });
    }
    return value;
  }

  private notAFunction(args: Arg[], final: Final): void {
    if (args.length > 1 || final !== MISSING) this.fail(`can't give argument to non-function ${argString(args[0] as Arg)}`);
  }

  private evalCommand(dot: unknown, cmd: Command, final: Final): unknown {
    const first = cmd.args[0] as Arg;
    switch (first.k) {
      case 'field':
        return this.evalFieldChain(dot, dot, first.idents, cmd.args, final, first.pos, first);
      case 'chain':
        return this.evalChain(dot, first, cmd.args, final);
      case 'ident':
        this.at(cmd.pos, cmd.args.map(argString).join(' '));
        return this.evalFunction(dot, first, cmd.args, final);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first.pipe);
      case 'var':
        return this.evalVariable(dot, first, cmd.args, final);
    }
    this.at(first.pos, argString(first));
    this.notAFunction(cmd.args, final);
    switch (first.k) {
      case 'bool':
        return first.v;
      case 'dot':
        return dot;
      case 'nil':
        return this.fail('nil is not a command');
      case 'number':
        return first.asFloat ? first.float : this.idealInt(first);
      case 'string':
        return first.v;
    }
  }

  private idealInt(n: Extract<Arg, { k: 'number' }>): bigint {
    if (!n.isInt) this.fail(`${n.text} overflows int`);
    return n.int;
  }

  private evalChain(dot: unknown, chain: Extract<Arg, { k: 'chain' }>, args: Arg[], final: Final): unknown {
    if (chain.node.k === 'nil') this.fail(`indirection through explicit nil in ${argString(chain)}`);
    const recv = this.evalArg(dot, 'any', chain.node, true);
    return this.evalFieldChain(dot, recv, chain.idents, args, final, chain.pos, chain);
  }

  private evalVariable(dot: unknown, v: Extract<Arg, { k: 'var' }>, args: Arg[], final: Final): unknown {
    this.at(v.pos, argString(v));
    const value = this.varValue(v.name);
    if (v.idents.length === 0) {
      this.notAFunction(args, final);
      return value;
    }
    return this.evalFieldChain(dot, value, v.idents, args, final, v.pos, v);
  }

  private evalFieldChain(dot: unknown, recv: unknown, idents: string[], args: Arg[], final: Final, pos: number, node: Arg): unknown {
    this.at(pos, argString(node));
    const n = idents.length;
    for (let i = 0; i < n - 1; i++) recv = this.evalField(dot, idents[i] ?? '', [], MISSING, recv);
    return this.evalField(dot, idents[n - 1] ?? '', args, final, recv);
  }

  private evalField(dot: unknown, name: string, args: Arg[], final: Final, recv: unknown): unknown {
    if (recv === undefined) return undefined;
    if (recv instanceof GoTime) {
      const m = timeMethod(name);
      if (m !== undefined) return this.evalCall(dot, m(recv), name, args, final);
    }
    const hasArgs = args.length > 1 || final !== MISSING;
    if (recv === null) this.fail(`nil pointer evaluating interface {}.${name}`);
    if (isMap(recv)) {
      if (hasArgs) this.fail(`${name} is not a method but has arguments`);
      return Object.hasOwn(recv, name) ? recv[name] : undefined;
    }
    return this.fail(`can't evaluate field ${name} in type ${goType(recv)}`);
  }

  private evalFunction(dot: unknown, id: Extract<Arg, { k: 'ident' }>, args: Arg[], final: Final): unknown {
    if (args.length === 1) this.at(id.pos, id.name);
    const f = this.opts.funcs.get(id.name);
    if (f === undefined) return this.fail(`${JSON.stringify(id.name)} is not a defined function`);
    return this.evalCall(dot, f, id.name, args, final);
  }

  private evalCall(dot: unknown, f: GoFunc, name: string, cmdArgs: Arg[], final: Final): unknown {
    const args = cmdArgs.slice(1);
    const numIn = args.length + (final !== MISSING ? 1 : 0);
    const fixed = f.params.length;
    if (f.variadic !== undefined ? numIn < fixed : numIn !== fixed) {
      this.fail(`wrong number of args for ${name}: want ${f.variadic !== undefined ? 'at least ' : ''}${fixed} got ${numIn}`);
    }
    const typeAt = (i: number): ParamType => f.params[i] ?? f.variadic ?? 'any';
    if (name === 'and' || name === 'or') {
      let v: unknown;
      for (const a of args) {
        v = this.evalArg(dot, 'value', a);
        if (truth(v) === (name === 'or')) return v;
      }
      return final !== MISSING ? this.validate(final, 'value') : v;
    }
    const [pos, context] = [this.pos, this.context];
    const argv: unknown[] = args.map((a, i) => this.evalArg(dot, typeAt(i), a));
    if (final !== MISSING) argv.push(this.validate(final, typeAt(args.length)));
    this.at(pos, context);
    try {
      const result = (f.fn as (...a: unknown[]) => unknown)(...argv);
      if ((typeof result === 'string' || Array.isArray(result)) && result.length > MAX_VALUE) {
        throw new TemplateError('too-large', this.opts.errorAt(this.pos, this.context, `${name} built a value longer than ${MAX_VALUE}`));
      }
      return result;
    } catch (e) {
      if (e instanceof TemplateError) throw e;
      return this.fail(`error calling ${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Go's evalArg: an operand converted to a parameter type; literals are typed by the parameter. */
  private evalArg(dot: unknown, t: ParamType, a: Arg, raw = false): unknown {
    this.at(a.pos, argString(a));
    const check = (v: unknown): unknown => (raw ? v : this.validate(v, t));
    switch (a.k) {
      case 'dot':
        return check(dot);
      case 'nil':
        if (t === 'value') return undefined; // reflect.Value's zero is "no value"
        if (t === 'any' || t === 'map' || raw) return null;
        return this.fail(`cannot assign nil to ${goTypeName[t]}`);
      case 'field':
        return check(this.evalFieldChain(dot, dot, a.idents, [a], MISSING, a.pos, a));
      case 'var':
        return check(this.evalVariable(dot, a, [a], MISSING));
      case 'pipe':
        return check(this.evalPipeline(dot, a.pipe));
      case 'ident':
        return check(this.evalFunction(dot, a, [a], MISSING));
      case 'chain':
        return check(this.evalChain(dot, a, [a], MISSING));
    }
    switch (t) {
      case 'bool':
        return a.k === 'bool' ? a.v : this.fail(`expected bool; found ${argString(a)}`);
      case 'float':
        return a.k === 'number' && a.isFloat ? a.float : this.fail(`expected float; found ${argString(a)}`);
      case 'int':
        return a.k === 'number' && a.isInt ? a.int : this.fail(`expected integer; found ${argString(a)}`);
      case 'string':
        return a.k === 'string' ? a.v : this.fail(`expected string; found ${argString(a)}`);
      case 'any':
      case 'value':
        if (a.k === 'number') return a.asFloat ? a.float : this.idealInt(a);
        return a.v;
    }
    return this.fail(`can't handle ${argString(a)} for arg of type ${goTypeName[t]}`);
  }

  /** Go's validateType: is the value assignable to the parameter type? */
  private validate(v: unknown, t: ParamType): unknown {
    if (v === undefined) {
      if (t === 'any' || t === 'map') return null;
      if (t === 'value') return undefined;
      return this.fail(`invalid value; expected ${goTypeName[t]}`);
    }
    switch (t) {
      case 'any':
      case 'value':
        return v;
      case 'string':
        if (typeof v === 'string') return v;
        break;
      case 'bool':
        if (typeof v === 'boolean') return v;
        break;
      case 'int':
        if (typeof v === 'bigint') return v;
        break;
      case 'float':
        if (typeof v === 'number') return v;
        break;
      case 'map':
        if (isMap(v) && elemOf(v) === undefined) return v;
        break;
      case 'time':
        if (v instanceof GoTime) return v;
        break;
    }
    return this.fail(`wrong type for value; expected ${goTypeName[t]}; got ${v === null ? 'interface {}' : goType(v)}`);
  }
}
