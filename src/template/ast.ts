/** The parse tree: Go's text/template/parse nodes, as plain tagged objects walked by exec.ts. */

export type Node = TextNode | ActionNode | IfNode | RangeNode | WithNode | BreakNode | ContinueNode;

export interface TextNode {
  k: 'text';
  text: string;
}
export interface ActionNode {
  k: 'action';
  pos: number;
  pipe: Pipe;
}
/** if and with share a shape; else-if chains nest in elseList. */
export interface IfNode {
  k: 'if' | 'with';
  pos: number;
  pipe: Pipe;
  list: Node[];
  elseList: Node[] | null;
}
export type WithNode = IfNode;
export interface RangeNode {
  k: 'range';
  pos: number;
  pipe: Pipe;
  list: Node[];
  elseList: Node[] | null;
}
export interface BreakNode {
  k: 'break';
  pos: number;
}
export interface ContinueNode {
  k: 'continue';
  pos: number;
}

export interface Pipe {
  pos: number;
  decl: string[]; // declared or assigned variables, e.g. ["$i", "$v"]
  isAssign: boolean; // "=" rather than ":="
  cmds: Command[];
}

export interface Command {
  pos: number;
  args: Arg[];
}

export type Arg =
  | { k: 'field'; pos: number; idents: string[] }
  | { k: 'var'; pos: number; name: string; idents: string[] }
  | { k: 'dot'; pos: number }
  | { k: 'nil'; pos: number }
  | { k: 'bool'; pos: number; v: boolean }
  | NumberArg
  | { k: 'string'; pos: number; v: string; text: string }
  | { k: 'ident'; pos: number; name: string }
  | { k: 'chain'; pos: number; node: Arg; idents: string[] }
  | { k: 'pipe'; pos: number; pipe: Pipe };

/** A number literal; like Go's NumberNode it may be usable as int, float or both. */
export interface NumberArg {
  k: 'number';
  pos: number;
  text: string;
  isInt: boolean;
  isFloat: boolean;
  int: bigint;
  float: number;
  /** float64 when passed to interface{} (the literal has . e E p or P), else int. */
  asFloat: boolean;
}

/** Go's String() of an argument node, used in "at <...>" and "can't give argument" messages. */
export function argString(a: Arg): string {
  switch (a.k) {
    case 'field':
      return '.' + a.idents.join('.');
    case 'var':
      return [a.name, ...a.idents].join('.');
    case 'dot':
      return '.';
    case 'nil':
      return 'nil';
    case 'bool':
      return String(a.v);
    case 'number':
      return a.text;
    case 'string':
      return a.text;
    case 'ident':
      return a.name;
    case 'chain':
      return argString(a.node) + '.' + a.idents.join('.');
    case 'pipe':
      return '(' + pipeString(a.pipe) + ')';
  }
}

export function pipeString(p: Pipe): string {
  const decl = p.decl.length > 0 ? p.decl.join(', ') + (p.isAssign ? ' = ' : ' := ') : '';
  return decl + p.cmds.map((c) => c.args.map(argString).join(' ')).join(' | ');
}
