/** Go's text/template parser (text/template/parse/parse.go) over the items of lexer.ts. */
import type { Arg, Command, IfNode, Node, Pipe, RangeNode } from './ast.js';
import { lex, type Item, type ItemType } from './lexer.js';
import { parseNumber, unquote } from './literals.js';

/** A parse failure at an input offset; index.ts turns it into a positioned TemplateError. */
export class ParseFailure extends Error {
  constructor(
    message: string,
    readonly pos: number,
  ) {
    super(message);
  }
}

type End = { k: 'end' | 'else'; pos: number };

/**
 * Nesting of parentheses and control structures. Go allows 10,000; the JS stack does not, and
 * no notification template needs more than a handful.
 */
const MAX_DEPTH = 500;

export function parse(input: string, hasFunc: (name: string) => boolean): Node[] {
  return new Parser(lex(input), hasFunc).parse();
}

class Parser {
  private i = 0;
  private vars: string[] = ['$'];
  private rangeDepth = 0;
  private depth = 0;

  constructor(
    private readonly items: Item[],
    private readonly hasFunc: (name: string) => boolean,
  ) {}

  parse(): Node[] {
    const root: Node[] = [];
    while (this.peek().type !== 'eof') {
      const n = this.textOrAction();
      if (n === null) continue;
      if (n.k === 'end' || n.k === 'else') this.fail(`unexpected {{${n.k}}}`, n.pos);
      root.push(n as Node);
    }
    return root;
  }

  private fail(msg: string, pos: number): never {
    throw new ParseFailure(msg, pos);
  }

  private next(): Item {
    const it = this.items[this.i] ?? this.items[this.items.length - 1];
    if (it === undefined) this.fail('unexpected EOF', 0);
    if (this.i < this.items.length - 1) this.i++;
    if (it.type === 'error') this.fail(it.val, it.pos);
    return it;
  }
  private peek(): Item {
    const it = this.items[this.i];
    if (it === undefined) this.fail('unexpected EOF', 0);
    if (it.type === 'error') this.fail(it.val, it.pos);
    return it;
  }
  private nextNonSpace(): Item {
    let it = this.next();
    while (it.type === 'space') it = this.next();
    return it;
  }
  private peekNonSpace(): Item {
    while (this.peek().type === 'space') this.i++;
    return this.peek();
  }
  private expect(type: ItemType, context: string): Item {
    const it = this.nextNonSpace();
    if (it.type !== type) this.unexpected(it, context);
    return it;
  }
  private unexpected(it: Item, context: string): never {
    const desc = it.type === 'eof' ? 'EOF' : it.type === 'keyword' ? `<${it.val}>` : JSON.stringify(it.val.length > 10 ? it.val.slice(0, 10) + '...' : it.val);
    this.fail(`unexpected ${desc} in ${context}`, it.pos);
  }

  private textOrAction(): Node | End | null {
    const it = this.nextNonSpace();
    switch (it.type) {
      case 'text':
        return { k: 'text', text: it.val };
      case 'comment':
        return null;
      case 'left':
        return this.action();
      default:
        this.unexpected(it, 'input');
    }
  }

  private itemList(): [Node[], End] {
    const list: Node[] = [];
    while (this.peekNonSpace().type !== 'eof') {
      const n = this.textOrAction();
      if (n === null) continue;
      if (n.k === 'end' || n.k === 'else') return [list, n as End];
      list.push(n as Node);
    }
    this.fail('unexpected EOF', this.peek().pos);
  }

  private action(): Node | End {
    const it = this.nextNonSpace();
    if (it.type === 'keyword') {
      switch (it.val) {
        case 'if':
        case 'with':
          return this.control(it.val, it.pos);
        case 'range':
          return this.control('range', it.pos);
        case 'end':
          this.expect('right', 'end');
          return { k: 'end', pos: it.pos };
        case 'else': {
          const p = this.peekNonSpace();
          if (p.type === 'keyword' && (p.val === 'if' || p.val === 'with')) return { k: 'else', pos: it.pos };
          this.expect('right', 'else');
          return { k: 'else', pos: it.pos };
        }
        case 'break':
        case 'continue':
          if (this.rangeDepth === 0) this.fail(`{{${it.val}}} outside {{range}}`, it.pos);
          this.expect('right', `{{${it.val}}}`);
          return { k: it.val, pos: it.pos };
      }
    }
    this.i--;
    const start = this.peekNonSpace().pos;
    return { k: 'action', pos: start, pipe: this.pipeline('command', 'right') };
  }

  private control(context: 'if' | 'with' | 'range', pos: number): IfNode | RangeNode {
    if (++this.depth > MAX_DEPTH) this.fail('max expression depth exceeded', pos);
    try {
      return this.controlBody(context, pos);
    } finally {
      this.depth--;
    }
  }

  private controlBody(context: 'if' | 'with' | 'range', pos: number): IfNode | RangeNode {
    const mark = this.vars.length;
    const pipe = this.pipeline(context, 'right');
    if (context === 'range') this.rangeDepth++;
    let [list, next] = this.itemList();
    if (context === 'range') this.rangeDepth--;
    let elseList: Node[] | null = null;
    if (next.k === 'else') {
      const p = this.peekNonSpace();
      if (p.type === 'keyword' && p.val === context && context !== 'range') {
        this.next();
        elseList = [this.control(context, p.pos)];
      } else {
        [elseList, next] = this.itemList();
        if (next.k !== 'end') this.fail(`expected end; found {{${next.k}}}`, next.pos);
      }
    }
    this.vars.length = mark;
    list = list.length > 0 ? list : [];
    return { k: context, pos, pipe, list, elseList };
  }

  private pipeline(context: string, end: ItemType): Pipe {
    if (++this.depth > MAX_DEPTH) this.fail('max expression depth exceeded', this.peek().pos);
    try {
      return this.pipelineBody(context, end);
    } finally {
      this.depth--;
    }
  }

  private pipelineBody(context: string, end: ItemType): Pipe {
    const pipe: Pipe = { pos: this.peekNonSpace().pos, decl: [], isAssign: false, cmds: [] };
    for (;;) {
      const v = this.peekNonSpace();
      if (v.type !== 'variable') break;
      const save = this.i;
      this.next();
      const next = this.peekNonSpace();
      if (next.type === 'assign' || next.type === 'declare') {
        pipe.isAssign = next.type === 'assign';
        this.next();
        pipe.decl.push(v.val);
        this.vars.push(v.val);
        break;
      }
      if (next.type === 'comma') {
        this.next();
        pipe.decl.push(v.val);
        this.vars.push(v.val);
        if (context === 'range' && pipe.decl.length < 2) {
          const t = this.peekNonSpace().type;
          if (t === 'variable' || t === 'right' || t === 'rightParen') continue;
          this.fail('range can only initialize variables', next.pos);
        }
        this.fail(`too many declarations in ${context}`, next.pos);
      }
      this.i = save;
      break;
    }
    for (;;) {
      const it = this.nextNonSpace();
      if (it.type === end) {
        if (pipe.cmds.length === 0) this.fail(`missing value for ${context}`, it.pos);
        pipe.cmds.forEach((c, i) => {
          const k = c.args[0]?.k;
          if (i > 0 && (k === 'bool' || k === 'dot' || k === 'nil' || k === 'number' || k === 'string')) {
            this.fail(`non executable command in pipeline stage ${i + 1}`, c.pos);
          }
        });
        return pipe;
      }
      if (['bool', 'char', 'dot', 'field', 'identifier', 'number', 'nil', 'rawString', 'string', 'variable', 'leftParen'].includes(it.type)) {
        this.i--;
        pipe.cmds.push(this.command());
      } else this.unexpected(it, context);
    }
  }

  private command(): Command {
    const cmd: Command = { pos: this.peekNonSpace().pos, args: [] };
    for (;;) {
      this.peekNonSpace();
      const op = this.operand();
      if (op !== null) cmd.args.push(op);
      const it = this.next();
      if (it.type === 'space') continue;
      if (it.type === 'right' || it.type === 'rightParen') this.i--;
      else if (it.type !== 'pipe') this.unexpected(it, 'operand');
      break;
    }
    if (cmd.args.length === 0) this.fail('empty command', cmd.pos);
    return cmd;
  }

  private operand(): Arg | null {
    const node = this.term();
    if (node === null || this.peek().type !== 'field') return node;
    const idents: string[] = [];
    while (this.peek().type === 'field') idents.push(this.next().val.slice(1));
    switch (node.k) {
      case 'field':
        return { ...node, idents: [...node.idents, ...idents] };
      case 'var':
        return { ...node, idents: [...node.idents, ...idents] };
      case 'bool':
      case 'string':
      case 'number':
      case 'nil':
      case 'dot':
        this.fail(`unexpected . after term ${JSON.stringify(node.k === 'dot' ? '.' : 'text' in node ? node.text : String(node.k === 'bool' ? node.v : 'nil'))}`, node.pos);
      // falls through: fail() never returns
      default:
        return { k: 'chain', pos: node.pos, node, idents };
    }
  }

  private term(): Arg | null {
    const it = this.nextNonSpace();
    const pos = it.pos;
    try {
      switch (it.type) {
        case 'identifier':
          if (!this.hasFunc(it.val)) this.fail(`function ${JSON.stringify(it.val)} not defined`, pos);
          return { k: 'ident', pos, name: it.val };
        case 'dot':
          return { k: 'dot', pos };
        case 'nil':
          return { k: 'nil', pos };
        case 'variable': {
          const [name = '$', ...idents] = it.val.split('.');
          if (!this.vars.includes(name)) this.fail(`undefined variable ${JSON.stringify(name)}`, pos);
          return { k: 'var', pos, name, idents };
        }
        case 'field':
          return { k: 'field', pos, idents: [it.val.slice(1)] };
        case 'bool':
          return { k: 'bool', pos, v: it.val === 'true' };
        case 'number':
        case 'char':
          return parseNumber(pos, it.val, it.type === 'char');
        case 'leftParen':
          return { k: 'pipe', pos, pipe: this.pipeline('parenthesized pipeline', 'rightParen') };
        case 'string':
        case 'rawString':
          return { k: 'string', pos, v: unquote(it.val), text: it.val };
      }
    } catch (e) {
      if (e instanceof ParseFailure) throw e;
      this.fail((e as Error).message, pos);
    }
    this.i--;
    return null;
  }
}
