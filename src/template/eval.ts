/** Go's text/template evaluation of pipelines, commands, fields and calls (text/template/exec.go). */
import { argString, pipeString, type Arg, type Command, type Pipe } from './ast.js';
import { MAX_LIST, ValueTooLarge, checkLength } from './bounds.js';
import { WorkExhausted, copied } from './budget.js';
import { TemplateError } from './errors.js';
import { goTypeName, type GoFunc, type ParamType } from './funcs.js';
import { timeMethod } from './timemethods.js';
import { GoTime, elemOf, goType, isMap, truth } from './values.js';

/** What an error names as the failing node. */
type Context = Pipe | Command | Arg | string;

/** Marks "no piped value", as distinct from a piped "no value" (undefined). */
const MISSING = Symbol('missing');
const NO_ARGS: Arg[] = [];
type Final = unknown;

export interface ExecOptions {
  readonly maxOutput: number;
  readonly deadline: number;
  /** Units of work the render may spend (budget.ts). */
  readonly maxWork: number;
  readonly funcs: ReadonlyMap<string, GoFunc>;
  /** Builds the positioned error message for an exec failure at an input offset. */
  readonly errorAt: (pos: number, context: string, msg: string) => string;
}

/** Thrown inside the walk; converted to TemplateError at the top with position. */
export class ExecFailure extends Error {}

/** Variables and expression evaluation; State (exec.ts) adds the walk over the tree. */
export class Evaluator {
  protected vars: { name: string; value: unknown }[] = [];
  protected pos = 0;
  /** The node being evaluated; described only when an error needs it. */
  protected node: Context = '';

  constructor(protected readonly opts: ExecOptions) {}

  /** Go's s.errorf: fails at the current node. */
  protected fail(msg: string): never {
    throw new ExecFailure(msg);
  }

  protected at(pos: number, node: Context): void {
    this.pos = pos;
    this.node = node;
  }

  /** Go's ErrorContext: the node as source text. */
  protected get context(): string {
    const n = this.node;
    if (typeof n === 'string') return n;
    if ('cmds' in n) return pipeString(n);
    if ('args' in n) return n.args.map(argString).join(' ');
    return argString(n);
  }

  protected setVar(name: string, value: unknown): void {
    for (let i = this.vars.length - 1; i >= 0; i--) {
      const v = this.vars[i];
      if (v !== undefined && v.name === name) {
        v.value = value;
        return;
      }
    }
    this.fail(`undefined variable: ${name}`);
  }

  protected setTopVar(n: number, value: unknown): void {
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

  protected evalPipeline(dot: unknown, pipe: Pipe): unknown {
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
        return this.evalFieldChain(dot, dot, first.idents, cmd.args, final, first);
      case 'chain':
        return this.evalChain(dot, first, cmd.args, final);
      case 'ident':
        this.at(cmd.pos, cmd);
        return this.evalFunction(dot, first, cmd.args, final);
      case 'pipe':
        this.notAFunction(cmd.args, final);
        return this.evalPipeline(dot, first.pipe);
      case 'var':
        return this.evalVariable(dot, first, cmd.args, final);
    }
    this.at(first.pos, first);
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
    return this.evalFieldChain(dot, recv, chain.idents, args, final, chain);
  }

  private evalVariable(dot: unknown, v: Extract<Arg, { k: 'var' }>, args: Arg[], final: Final): unknown {
    this.at(v.pos, v);
    const value = this.varValue(v.name);
    if (v.idents.length === 0) {
      this.notAFunction(args, final);
      return value;
    }
    return this.evalFieldChain(dot, value, v.idents, args, final, v);
  }

  private evalFieldChain(dot: unknown, recv: unknown, idents: string[], args: Arg[], final: Final, node: Arg): unknown {
    this.at(node.pos, node);
    const n = idents.length;
    for (let i = 0; i < n - 1; i++) recv = this.evalField(dot, idents[i] ?? '', NO_ARGS, MISSING, recv);
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
    if (args.length === 1) this.at(id.pos, id);
    const f = this.opts.funcs.get(id.name);
    if (f === undefined) return this.fail(`${JSON.stringify(id.name)} is not a defined function`);
    return this.evalCall(dot, f, id.name, args, final);
  }

  private evalCall(dot: unknown, f: GoFunc, name: string, cmdArgs: Arg[], final: Final): unknown {
    const n = cmdArgs.length - 1; // cmdArgs[0] names the function
    const numIn = n + (final !== MISSING ? 1 : 0);
    const fixed = f.params.length;
    if (f.variadic !== undefined ? numIn < fixed : numIn !== fixed) {
      this.fail(`wrong number of args for ${name}: want ${f.variadic !== undefined ? 'at least ' : ''}${fixed} got ${numIn}`);
    }
    if (name === 'and' || name === 'or') {
      let v: unknown;
      for (let i = 1; i <= n; i++) {
        v = this.evalArg(dot, 'value', cmdArgs[i] as Arg);
        if (truth(v) === (name === 'or')) return v;
      }
      return final !== MISSING ? this.validate(final, 'value') : v;
    }
    const pos = this.pos;
    const node = this.node;
    const argv = new Array<unknown>(numIn);
    for (let i = 0; i < n; i++) argv[i] = this.evalArg(dot, f.params[i] ?? f.variadic ?? 'any', cmdArgs[i + 1] as Arg);
    if (final !== MISSING) argv[n] = this.validate(final, f.params[n] ?? f.variadic ?? 'any');
    this.at(pos, node);
    try {
      // Most functions scan their strings and copy their lists once: charged here, so that a
      // loop calling one on a megabyte string meets the deadline; walks charge as they go.
      for (const a of argv) if (typeof a === 'string') copied(a.length);
      const result = (f.fn as (...a: unknown[]) => unknown)(...argv);
      if (typeof result === 'string') {
        checkLength(result.length);
        copied(result.length);
      } else if (Array.isArray(result)) {
        if (result.length > MAX_LIST) throw new ValueTooLarge('list');
        copied(result.length);
      }
      return result;
    } catch (e) {
      if (e instanceof TemplateError || e instanceof WorkExhausted) throw e;
      if (e instanceof ValueTooLarge) throw new TemplateError('too-large', this.opts.errorAt(this.pos, this.context, `${name} built a ${e.message}`));
      return this.fail(`error calling ${name}: ${e instanceof Error ? e.message : String(e)}`);
    }
  }

  /** Go's evalArg: an operand converted to a parameter type; literals are typed by the parameter. */
  private evalArg(dot: unknown, t: ParamType, a: Arg, raw = false): unknown {
    this.at(a.pos, a);
    const check = (v: unknown): unknown => (raw ? v : this.validate(v, t));
    switch (a.k) {
      case 'dot':
        return check(dot);
      case 'nil':
        if (t === 'value') return undefined; // reflect.Value's zero is "no value"
        if (t === 'any' || t === 'map' || raw) return null;
        return this.fail(`cannot assign nil to ${goTypeName[t]}`);
      case 'field':
        return check(this.evalFieldChain(dot, dot, a.idents, [a], MISSING, a));
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
