import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { boolParam, listParam, param, paramAliases, rawParam } from '../../src/transports/http/params.js';
import { parseQuery, type RequestInfo } from '../../src/transports/http/request.js';

const request = (headers: Record<string, string> = {}, query = ''): RequestInfo => ({
  method: 'POST',
  path: '/t',
  headers: new Map(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v])),
  query: parseQuery(query),
  remoteAddress: '127.0.0.1',
  seen: {},
});

describe('parameter table', () => {
  it('holds the spec’s aliases for every publish and subscribe parameter', () => {
    assert.deepEqual(paramAliases.title, ['x-title', 'title', 'ti', 't']);
    assert.deepEqual(paramAliases.priority, ['x-priority', 'priority', 'prio', 'p']);
    assert.deepEqual(paramAliases.delay, ['x-delay', 'delay', 'x-at', 'at', 'x-in', 'in']);
    assert.deepEqual(paramAliases.email, ['x-email', 'x-e-mail', 'email', 'e-mail', 'mail', 'e']);
    assert.deepEqual(paramAliases.unifiedPush, ['x-unifiedpush', 'unifiedpush', 'x-altpush', 'altpush', 'up']);
    assert.deepEqual(paramAliases.since, ['x-since', 'since', 'si']);
    for (const aliases of Object.values(paramAliases)) for (const alias of aliases) assert.equal(alias, alias.toLowerCase());
  });

  it('every alias is read from headers and from the query', () => {
    for (const [name, aliases] of Object.entries(paramAliases)) {
      for (const alias of aliases) {
        assert.equal(param(request({ [alias]: 'v' }), name as keyof typeof paramAliases), 'v', `${alias} header`);
        assert.equal(param(request({}, `${alias}=v`), name as keyof typeof paramAliases), 'v', `${alias} query`);
      }
    }
  });

  it('past 32 parameters (the table outgrew one 32-bit word of presence bits): each is seen alone, none for another', () => {
    const names = Object.keys(paramAliases) as (keyof typeof paramAliases)[];
    assert.ok(names.length > 32, String(names.length));
    for (const name of names) {
      const req = request({ [(paramAliases[name] as readonly string[])[0] as string]: 'v' });
      assert.deepEqual(names.filter((other) => param(req, other) !== ''), [name], name);
    }
  });

  it('headers win over the query; query names are lower-case only (as ntfy); values are trimmed', () => {
    assert.equal(param(request({ 'X-Title': ' header ' }, 'title=query'), 'title'), 'header');
    assert.equal(param(request({}, 'TITLE=query&Title=query'), 'title'), '');
    assert.equal(param(request({}, 'Title=upper&title=lower'), 'title'), 'lower');
  });

  it("RFC 9218's Priority header is skipped, other priority aliases still read", () => {
    for (const hint of ['u=1', 'u=3, i', 'u=0,1', 'u=7,  i']) assert.equal(param(request({ Priority: hint }), 'priority'), '', hint);
    assert.equal(param(request({ Priority: 'u=1, i', p: '4' }), 'priority'), '4');
    assert.equal(param(request({ Priority: 'u=1' }, 'prio=min'), 'priority'), 'min');
    assert.equal(param(request({ 'X-Priority': 'u=1' }), 'priority'), 'u=1'); // only the bare Priority header is a hint
    assert.equal(param(request({ Priority: 'u=10' }), 'priority'), 'u=10');
  });

  it('an empty header falls through to the next alias and the query', () => {
    assert.equal(param(request({ 'X-Title': '  ' }, 't=q'), 'title'), 'q');
  });

  it('a copy of a request with other headers or query (a JSON publish rewritten) reads its own', () => {
    const plain = request({ 'Content-Length': '5' });
    assert.equal(param(plain, 'title'), '');
    const copy: RequestInfo = { ...plain, headers: new Map([['x-title', 'From JSON']]) };
    assert.equal(param(copy, 'title'), 'From JSON');
    assert.equal(param({ ...copy, query: parseQuery('p=5') }, 'priority'), '5');
    assert.equal(param(plain, 'title'), '', 'the original is unchanged');
  });

  it('decodes RFC 2047 header values but not query values', () => {
    assert.equal(param(request({ Title: '=?UTF-8?B?w7w=?=' }), 'title'), 'ü');
    assert.equal(param(request({}, 'title==?UTF-8?B?w7w=?='), 'title'), '=?UTF-8?B?w7w=?=');
  });

  it('rawParam reads as param does (headers, then the query, trimmed) but never decodes', () => {
    const req = request({ 'X-Template': ' =?UTF-8?B?eWVz?= ', Tpl: 'no' }, 'up=1');
    assert.equal(rawParam(req, 'template'), '=?UTF-8?B?eWVz?=');
    assert.equal(param(req, 'template'), 'yes');
    assert.equal(rawParam(req, 'unifiedPush'), '1');
    assert.equal(rawParam(request({ 'X-Template': '  ' }, 'tpl=yes'), 'template'), 'yes');
    assert.equal(rawParam(request(), 'template'), '');
  });

  it('booleans: 1/yes/true are true, anything else false, absent the default', () => {
    assert.equal(boolParam(request({ Cache: 'no' }), 'cache', true), false);
    assert.equal(boolParam(request({ Cache: 'YES' }), 'cache', false), true);
    assert.equal(boolParam(request({ Cache: 'maybe' }), 'cache', true), false);
    assert.equal(boolParam(request(), 'cache', true), true);
  });

  it('lists split on commas and drop empty entries', () => {
    assert.deepEqual(listParam(request({ Tags: ' a, b ,,c ' }), 'tags'), ['a', 'b', 'c']);
    assert.deepEqual(listParam(request(), 'tags'), []);
  });
});
