import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Action } from '../../src/model/action.js';
import { HttpError } from '../../src/model/errors.js';
import { parseActions } from '../../src/transports/publish/actions.js';

/** The actions without their random ids. */
const parse = (input: string): Omit<Action, 'id'>[] =>
  parseActions(input).map(({ id, ...rest }) => {
    assert.match(id, /^[a-zA-Z0-9]{10}$/);
    return rest;
  });

function rejects(input: string, detail: RegExp): void {
  assert.throws(() => parseActions(input), (err: unknown) => {
    assert.ok(err instanceof HttpError);
    assert.equal(err.code, 40018);
    assert.match(err.error, detail);
    return true;
  });
}

describe('actions — short format', () => {
  it('parses each of the four types by position', () => {
    assert.deepEqual(parse('view, Open portal, https://home.nest.com/'), [{ action: 'view', label: 'Open portal', clear: false, url: 'https://home.nest.com/' }]);
    assert.deepEqual(parse('http, Close door, https://api.example.com/door'), [{ action: 'http', label: 'Close door', clear: false, url: 'https://api.example.com/door' }]);
    assert.deepEqual(parse('broadcast, Take picture, extras.cmd=pic, extras.camera=front, intent=io.heckel.ntfy.USER_ACTION'), [
      { action: 'broadcast', label: 'Take picture', clear: false, intent: 'io.heckel.ntfy.USER_ACTION', extras: { cmd: 'pic', camera: 'front' } },
    ]);
    assert.deepEqual(parse('copy, Copy code, 123456'), [{ action: 'copy', label: 'Copy code', clear: false, value: '123456' }]);
  });

  it('accepts action=, label= and url= prefixes in any order', () => {
    assert.deepEqual(parse('action=view, url=https://x.y, label=Go'), [{ action: 'view', label: 'Go', clear: false, url: 'https://x.y' }]);
  });

  it('http: method is upper-cased, headers.X and body collected, clear=true honoured', () => {
    assert.deepEqual(parse('http, Turn down, https://api.nest.com/, method=put, headers.Authorization=Bearer zAzsx1sk, headers.X-Y=z, body={"temp": 65}, clear=true'), [
      {
        action: 'http',
        label: 'Turn down',
        clear: true,
        url: 'https://api.nest.com/',
        method: 'PUT',
        headers: { Authorization: 'Bearer zAzsx1sk', 'X-Y': 'z' },
        body: '{"temp": 65}',
      },
    ]);
  });

  it('quotes: double or single, with commas, semicolons and escaped quotes inside', () => {
    assert.deepEqual(parse(`view, "Look, a \\"quote\\"; here", 'https://a.b/?x=1,2'`), [
      { action: 'view', label: 'Look, a "quote"; here', clear: false, url: 'https://a.b/?x=1,2' },
    ]);
  });

  it('separates actions with ; and lower-cases the type', () => {
    const actions = parse('VIEW, A, https://a; http, B, https://b, method=GET ;copy, C, v');
    assert.deepEqual(actions.map((a) => [a.action, a.label]), [['view', 'A'], ['http', 'B'], ['copy', 'C']]);
  });

  it('clear accepts yes/no/1/0 in any case', () => {
    assert.equal(parse('view, A, https://a, clear=YES')[0]?.clear, true);
    assert.equal(parse('view, A, https://a, clear=0')[0]?.clear, false);
  });
});

describe('actions — JSON', () => {
  it('parses an array of objects and normalises case', () => {
    const json = JSON.stringify([
      { action: 'HTTP', label: 'Ping', url: 'https://x', method: 'post', headers: { A: 'b' }, body: 'hi', clear: true },
      { action: 'copy', label: 'Copy', value: 'v' },
    ]);
    assert.deepEqual(parse(json), [
      { action: 'http', label: 'Ping', clear: true, url: 'https://x', method: 'POST', headers: { A: 'b' }, body: 'hi' },
      { action: 'copy', label: 'Copy', clear: false, value: 'v' },
    ]);
  });
});

describe('actions — bad input → 40018', () => {
  it('more than three actions', () => rejects('view, A, https://a; view, B, https://b; view, C, https://c; view, D, https://d', /only 3 actions allowed/));
  it('an unknown type', () => rejects('jump, A, https://a', /parameter 'action' cannot be 'jump'/));
  it('a missing label', () => rejects('view', /parameter 'label' is required/));
  it('a missing url', () => rejects('view, Open', /parameter 'url' is required for action 'view'/));
  it('a missing copy value', () => rejects('copy, Copy', /parameter 'value' is required/));
  it('a body with GET', () => rejects('http, A, https://a, method=GET, body=x', /body' cannot be set if method is GET/));
  it('a bad clear value', () => rejects('view, A, https://a, clear=maybe', /parameter 'clear' cannot be 'maybe'/));
  it('an unknown key', () => rejects('view, A, https://a, color=red', /key 'color' unknown/));
  it('a fourth bare term', () => rejects('view, A, https://a, extra', /term 'extra' unknown/));
  it('an unterminated quote', () => rejects('view, "A, https://a', /unexpected end of input/));
  it('garbage after a closing quote', () => rejects('view, "A" x, https://a', /unexpected character 'x'/));
  it('invalid JSON', () => rejects('[{"action": "view"', /JSON error/));
  it('JSON that is not an array of objects', () => rejects('["view"]', /each action must be an object/));
  it('JSON with wrong field types', () => {
    rejects('[{"action":"view","label":5,"url":"https://a"}]', /'label' must be a string/);
    rejects('[{"action":"http","label":"A","url":"https://a","headers":{"x":1}}]', /'headers' must be an object of strings/);
    rejects('[{"action":"view","label":"A","url":"https://a","clear":"yes"}]', /'clear' must be a boolean/);
  });
});
