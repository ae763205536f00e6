import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { HttpError } from '../../src/model/errors.js';
import { fromJsonBody } from '../../src/transports/publish/json-body.js';
import { parseActions } from '../../src/transports/publish/actions.js';
import type { RequestInfo } from '../../src/transports/http/request.js';

const req: RequestInfo = { method: 'POST', path: '/', headers: new Map(), query: new Map(), remoteAddress: '127.0.0.1', seen: {} };
const parse = (body: unknown) => fromJsonBody(req, Buffer.from(typeof body === 'string' ? body : JSON.stringify(body)));

/** Either a value, or one of ntfy's errors: nothing else may escape a parser of user input. */
function answersOrRefuses(run: () => unknown): void {
  try {
    run();
  } catch (err) {
    assert.ok(err instanceof HttpError, `not an ntfy error: ${String(err)}`);
    assert.ok(err.code >= 40000 && err.code < 50000, `code ${err.code}`);
  }
}

describe('JSON publish body', () => {
  it('null fields are absent: headers carry only what was set', () => {
    const { topic, req: out, body } = parse({ topic: 't', message: null, title: null, priority: null, tags: [null, 'x'], markdown: null, click: 'https://c' });
    assert.equal(topic, 't');
    assert.equal(body.toString(), 'triggered');
    assert.deepEqual([...out.headers], [['x-click', 'https://c'], ['x-tags', 'x']]);
  });

  it('no topic gives an empty topic (the handler answers 40009)', () => {
    assert.equal(parse({ message: 'm' }).topic, '');
    assert.equal(parse('null').topic, '');
  });

  it('fields keep their types: a number title, a string priority, a non-array body are 40024', () => {
    for (const body of [{ topic: 't', title: 1 }, { topic: 't', priority: 'high' }, [1], '"text"', '{']) {
      assert.throws(() => parse(body), (err: HttpError) => err.code === 40024, JSON.stringify(body));
    }
  });

  it('any JSON value is a publish or a 4xx ntfy error', () => {
    fc.assert(fc.property(fc.jsonValue(), (doc) => answersOrRefuses(() => parse(doc))));
    const field = fc.oneof(fc.constant(null), fc.string(), fc.integer(), fc.boolean(), fc.array(fc.oneof(fc.string(), fc.constant(null))));
    const publishShaped = fc.record({ topic: field, message: field, title: field, priority: field, tags: field, actions: fc.oneof(field, fc.array(fc.dictionary(fc.string(), field))) }, { requiredKeys: [] });
    fc.assert(fc.property(publishShaped, (doc) => answersOrRefuses(() => parse(doc))));
  });
});

describe('JSON actions with nulls', () => {
  it('null fields are absent', () => {
    const [action] = parseActions('[{"action":"http","label":"Go","url":"https://x","method":null,"headers":null,"body":null,"clear":null,"extras":null}]');
    assert.deepEqual({ ...action, id: '' }, { id: '', action: 'http', label: 'Go', url: 'https://x', clear: false });
  });

  it('any text is actions or 40018', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.json()), (text) => answersOrRefuses(() => parseActions(text))));
  });
});
