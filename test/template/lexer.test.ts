import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { lex } from '../../src/template/lexer.js';

const shape = (input: string): string[] => lex(input).map((i) => (i.type === 'space' ? 'space' : `${i.type}:${i.val}`));

describe('template lexer', () => {
  it('lexer — text and a simple action', () => {
    assert.deepEqual(shape('a {{ .b }} c'), ['text:a ', 'left:{{', 'space', 'field:.b', 'space', 'right:}}', 'text: c', 'eof:']);
  });

  it('lexer — trim markers remove the spaces beside the action, not the marker text', () => {
    assert.deepEqual(shape('a \n{{- .b -}}\n c'), ['text:a', 'left:{{- ', 'field:.b', 'space', 'right:}}', 'text:c', 'eof:']);
  });

  it('lexer — "{{-3}}" is the number -3, not a trim marker', () => {
    assert.deepEqual(shape('x {{-3}}'), ['text:x ', 'left:{{', 'number:-3', 'right:}}', 'eof:']);
  });

  it('lexer — a comment is one item and may carry trim markers', () => {
    assert.deepEqual(shape('a {{- /* c */ -}} b'), ['text:a', 'comment:{{- /* c */ -}}', 'text:b', 'eof:']);
  });

  it('lexer — pipelines, declarations, variables, literals and parentheses', () => {
    assert.deepEqual(shape('{{$x := (len "a\\"b") | printf `%d` 1.5e3 \'c\' true nil}}'), [
      'left:{{', 'variable:$x', 'space', 'declare::=', 'space', 'leftParen:(', 'identifier:len', 'space', 'string:"a\\"b"',
      'rightParen:)', 'space', 'pipe:|', 'space', 'identifier:printf', 'space', 'rawString:`%d`', 'space', 'number:1.5e3',
      'space', "char:'c'", 'space', 'bool:true', 'space', 'nil:nil', 'right:}}', 'eof:',
    ]);
  });

  it('lexer — keywords and chained fields', () => {
    assert.deepEqual(shape('{{range $i, $v := .a.b}}{{end}}'), [
      'left:{{', 'keyword:range', 'space', 'variable:$i', 'comma:,', 'space', 'variable:$v', 'space', 'declare::=', 'space',
      'field:.a', 'field:.b', 'right:}}', 'left:{{', 'keyword:end', 'right:}}', 'eof:',
    ]);
  });

  it('lexer — an error item ends the list, with its offset', () => {
    const items = lex('ok {{ "open');
    const last = items[items.length - 1];
    assert.equal(last?.type, 'error');
    assert.equal(last?.val, 'unterminated quoted string');
    assert.equal(last?.pos, 6);
  });
});
