/** Go's text/template lexer (text/template/parse/lex.go): splits a template into items. */

export type ItemType =
  | 'text' | 'left' | 'right' | 'space' | 'identifier' | 'field' | 'variable' | 'dot' | 'number'
  | 'string' | 'rawString' | 'char' | 'bool' | 'nil' | 'pipe' | 'leftParen' | 'rightParen'
  | 'declare' | 'assign' | 'comma' | 'keyword' | 'comment' | 'eof' | 'error';

export interface Item {
  type: ItemType;
  val: string;
  pos: number;
}

const keywords = new Set(['if', 'else', 'end', 'range', 'with', 'break', 'continue', 'define', 'template', 'block', 'nil', 'true', 'false']);
const isSpace = (c: string | undefined): boolean => c === ' ' || c === '\t' || c === '\r' || c === '\n';
const isAlnum = (c: string | undefined): boolean => c !== undefined && /[\p{L}\p{Nd}_]/u.test(c);

/** Lex the whole template; an error item ends the list. Trim markers are applied here, as Go does. */
export function lex(input: string): Item[] {
  const items: Item[] = [];
  let pos = 0;
  let parenDepth = 0;
  const emit = (type: ItemType, start: number, end: number): void => {
    items.push({ type, val: input.slice(start, end), pos: start });
  };
  const fail = (msg: string, at: number): Item[] => {
    items.push({ type: 'error', val: msg, pos: at });
    return items;
  };
  while (pos < input.length) {
    // Text up to the next action.
    let l = input.indexOf('{{', pos);
    if (l < 0) l = input.length;
    let textEnd = l;
    const trimLeft = l < input.length && input[l + 2] === '-' && isSpace(input[l + 3]);
    if (trimLeft) while (textEnd > pos && isSpace(input[textEnd - 1])) textEnd--;
    if (textEnd > pos) emit('text', pos, textEnd);
    if (l >= input.length) break;
    pos = l + 2 + (trimLeft ? 2 : 0);
    // A comment is a whole action.
    if (input.startsWith('/*', pos)) {
      const close = input.indexOf('*/', pos + 2);
      if (close < 0) return fail('unclosed comment', l);
      let after = close + 2;
      let trimRight = false;
      if (input[after] === ' ' && input[after + 1] === '-' && input.startsWith('}}', after + 2)) {
        trimRight = true;
        after += 2;
      }
      if (!input.startsWith('}}', after)) return fail('comment ends before closing delimiter', l);
      emit('comment', l, after + 2);
      pos = after + 2;
      if (trimRight) while (isSpace(input[pos])) pos++;
      continue;
    }
    emit('left', l, pos);
    // Inside the action.
    for (;;) {
      if (input.startsWith(' -}}', pos) || input.startsWith('\t-}}', pos) || input.startsWith('\r-}}', pos) || input.startsWith('\n-}}', pos)) {
        // Spaces before a trim marker still separate tokens.
        if (parenDepth > 0) return fail('unclosed left paren', pos);
        emit('space', pos, pos + 1);
        emit('right', pos + 2, pos + 4);
        pos += 4;
        while (isSpace(input[pos])) pos++;
        break;
      }
      if (input.startsWith('}}', pos)) {
        if (parenDepth > 0) return fail('unclosed left paren', pos);
        emit('right', pos, pos + 2);
        pos += 2;
        break;
      }
      const start = pos;
      const c = input[pos];
      if (c === undefined) return fail('unclosed action', pos);
      if (isSpace(c)) {
        while (isSpace(input[pos]) && !(input[pos + 1] === '-' && input.startsWith('}}', pos + 2))) pos++;
        if (pos === start) continue; // the trim-marker branch takes it
        emit('space', start, pos);
      } else if (c === '=') emit('assign', start, ++pos);
      else if (c === ':') {
        if (input[pos + 1] !== '=') return fail('expected :=', pos);
        pos += 2;
        emit('declare', start, pos);
      } else if (c === '|') emit('pipe', start, ++pos);
      else if (c === ',') emit('comma', start, ++pos);
      else if (c === '"' || c === '`' || c === "'") {
        const end = scanQuote(input, pos);
        if (end < 0) return fail(c === '`' ? 'unterminated raw quoted string' : c === '"' ? 'unterminated quoted string' : 'unterminated character constant', pos);
        pos = end;
        emit(c === '"' ? 'string' : c === '`' ? 'rawString' : 'char', start, pos);
      } else if (c === '$') {
        pos++;
        while (isAlnum(input[pos])) pos++;
        if (!atTerminator(input, pos)) return fail(badChar(input, pos), pos);
        emit('variable', start, pos);
      } else if (c === '.' && !/[0-9]/.test(input[pos + 1] ?? '')) {
        pos++;
        if (!isAlnum(input[pos])) {
          emit('dot', start, pos);
          continue;
        }
        while (isAlnum(input[pos])) pos++;
        if (!atTerminator(input, pos)) return fail(badChar(input, pos), pos);
        emit('field', start, pos);
      } else if (c === '+' || c === '-' || c === '.' || /[0-9]/.test(c)) {
        const m = /^[+-]?(0[xX][0-9a-fA-F_]*\.?[0-9a-fA-F_]*(?:[pP][+-]?[0-9_]+)?|0[oO][0-7_]+|0[bB][01_]+|[0-9_]*\.?[0-9_]*(?:[eE][+-]?[0-9_]+)?)i?/.exec(input.slice(pos));
        const len = m?.[0].length ?? 0;
        if (len === 0 || isAlnum(input[pos + len])) return fail(`bad number syntax: "${input.slice(pos, pos + len + 1)}"`, pos);
        pos += len;
        emit('number', start, pos);
      } else if (isAlnum(c)) {
        while (isAlnum(input[pos])) pos++;
        if (!atTerminator(input, pos)) return fail(badChar(input, pos), pos);
        const word = input.slice(start, pos);
        const type: ItemType = word === 'true' || word === 'false' ? 'bool' : word === 'nil' ? 'nil' : keywords.has(word) ? 'keyword' : 'identifier';
        emit(type, start, pos);
      } else if (c === '(') {
        parenDepth++;
        emit('leftParen', start, ++pos);
      } else if (c === ')') {
        if (--parenDepth < 0) return fail('unexpected right paren', pos);
        emit('rightParen', start, ++pos);
      } else {
        return fail(`unrecognized character in action: ${JSON.stringify(c)}`, pos);
      }
    }
  }
  items.push({ type: 'eof', val: '', pos: input.length });
  return items;
}

/** Whether a field, variable or identifier may end at pos (Go's atTerminator). */
function atTerminator(input: string, pos: number): boolean {
  const c = input[pos];
  return c === undefined || isSpace(c) || '.,|:()'.includes(c) || input.startsWith('}}', pos);
}

const badChar = (input: string, pos: number): string => {
  const cp = input.codePointAt(pos) ?? 0;
  return `bad character U+${cp.toString(16).toUpperCase().padStart(4, '0')} '${String.fromCodePoint(cp)}'`;
};

/** End index after a quoted token starting at pos, or -1 if unterminated. */
function scanQuote(input: string, pos: number): number {
  const q = input[pos];
  for (let i = pos + 1; i < input.length; i++) {
    const c = input[i];
    if (c === '\\' && q !== '`') {
      i++;
      if (input[i] === '\n') return -1;
    } else if (c === q) return i + 1;
    else if (c === '\n' && q !== '`') return -1;
  }
  return -1;
}
