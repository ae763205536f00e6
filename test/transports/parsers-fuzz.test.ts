import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { HttpError } from '../../src/model/errors.js';
import { parsePermission } from '../../src/model/access.js';
import { parseFutureTime } from '../../src/model/future-time.js';
import { parsePriority } from '../../src/model/priority.js';
import { TemplateError, compile } from '../../src/template/index.js';
import { findRoute } from '../../src/transports/routes.js';
import { parseQuery } from '../../src/transports/http/request.js';
import { parseSince } from '../../src/transports/subscribe/params.js';

/**
 * Every parser of user input answers or refuses with its own error type: no other
 * exception may escape (it would become a 500, or worse, an unanswered request).
 */
function refusesWith(kind: new (...args: never[]) => Error, run: () => unknown): void {
  try {
    run();
  } catch (err) {
    assert.ok(err instanceof kind, `escaped: ${String(err)}`);
    if (err instanceof HttpError) assert.ok(err.http >= 400 && err.http < 500, `code ${err.code}`);
  }
}

const words = (parts: string[]) => fc.array(fc.oneof(fc.constantFrom(...parts), fc.string({ maxLength: 6 }), fc.integer().map(String)), { maxLength: 6 }).map((w) => w.join(' '));

describe('parsers — properties', () => {
  it('delays (In/At/Delay): a future time or a 4xx ntfy error', () => {
    const now = new Date('2026-11-23T12:00:00Z');
    const delay = fc.oneof(fc.string(), words(['tomorrow', 'at', '9am', 'in', '5', 'minutes', 'm', 'h', 'd', '1e400', '-', 'next', 'Tuesday', '7pm', ':', '30s']));
    fc.assert(fc.property(delay, (input) => refusesWith(HttpError, () => {
      const at = parseFutureTime(input, now);
      assert.ok(!Number.isNaN(at.getTime()), input);
    })));
  });

  it('since: a position or a 4xx ntfy error', () => {
    const since = fc.oneof(fc.string(), fc.constantFrom('all', 'latest', 'none', '10m', '1e30', '99999999999999999999', '-1'), fc.integer().map(String));
    fc.assert(fc.property(since, fc.boolean(), (input, poll) => refusesWith(HttpError, () => parseSince(input, poll))));
  });

  it('priorities: 1 to 5, 0 for none, or 40007', () => {
    fc.assert(fc.property(fc.string(), (input) => refusesWith(HttpError, () => assert.ok([0, 1, 2, 3, 4, 5].includes(parsePriority(input))))));
  });

  it('permission words: a permission or undefined, never another object', () => {
    fc.assert(fc.property(fc.oneof(fc.string(), fc.constantFrom('__proto__', 'constructor', 'rw', 'deny')), (word) => {
      const p = parsePermission(word);
      if (p !== undefined) assert.deepEqual(Object.keys(p), ['read', 'write'], word);
    }));
  });

  it('template text: a template or a TemplateError, at compile and at render', () => {
    const text = fc.array(fc.oneof(fc.constantFrom('{{', '}}', '.a', ' range ', ' end ', ' if ', ' else ', '|', 'printf', '"%s"', '$x', ':=', '(', ')', 'len', 'nil', '-', ' '), fc.string({ maxLength: 4 })), { maxLength: 14 }).map((p) => p.join(''));
    fc.assert(fc.property(text, fc.jsonValue(), (source, data) => refusesWith(TemplateError, () => compile(source).render(data, { timeoutMs: 50 }))));
  });

  it('paths and methods: a route or none, never an exception', () => {
    const path = fc.oneof(fc.string(), fc.array(fc.constantFrom('/', 'v1', 'account', 'json', 'ws', ',', 'a', '%', '..', 'file', '.txt'), { maxLength: 8 }).map((p) => `/${p.join('')}`));
    fc.assert(fc.property(fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'), path, (method, p) => void findRoute(method, p)));
  });

  it('paths: a long one of dots and colons is routed in linear time (the /{server}/{topic} routes, issue 40)', () => {
    // A backtracking `[^/]*[.:]` took 0.8 s at 20,000 characters here, growing with the square; linear, 100,000 take 1 ms.
    for (const p of [`/${'.'.repeat(100_000)}`, `/${':.'.repeat(50_000)}/a.b/c`, `/${'.'.repeat(100_000)}/static`]) {
      const started = performance.now();
      findRoute('GET', p);
      assert.ok(performance.now() - started < 500, `${performance.now() - started} ms`);
    }
  });

  it('query strings: every pair kept by its exact name, the first value wins', () => {
    fc.assert(fc.property(fc.array(fc.tuple(fc.string({ minLength: 1 }), fc.string())), (pairs) => {
      const raw = pairs.map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(v)}`).join('&');
      const query = parseQuery(raw);
      for (const [k] of pairs) assert.equal(query.get(k), pairs.find(([key]) => key === k)?.[1]);
    }));
    fc.assert(fc.property(fc.string(), (raw) => void parseQuery(raw)));
  });
});
