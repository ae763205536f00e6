import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { topicPatternRegExp } from '../../src/model/access.js';
import { HttpError } from '../../src/model/errors.js';
import { decodeScopes, encodeScopes, maxTokenScopes, parseScopeFlag, parseScopes, scopesAllow, type TokenScope } from '../../src/model/token-scope.js';

const ro = { read: true, write: false };
const wo = { read: false, write: true };
const rw = { read: true, write: true };

describe('token scopes — parsing', () => {
  it('reads the API form and the CLI form, with ntfy permission words', () => {
    assert.deepEqual(parseScopes([{ topic: 'deploys', permission: 'write-only' }, { topic: 'logs-*', permission: 'ro' }]), [
      { topic: 'deploys', permission: wo },
      { topic: 'logs-*', permission: ro },
    ]);
    assert.deepEqual(parseScopeFlag('deploys:wo'), { topic: 'deploys', permission: wo });
    assert.deepEqual(parseScopeFlag('a*:read-write'), { topic: 'a*', permission: rw });
  });

  it('refuses a bad topic (40009), a bad permission word (40025), a bad count (40093) and another shape (40024)', () => {
    const code = (f: () => unknown): number | undefined => {
      try {
        f();
      } catch (err) {
        return (err as HttpError).code;
      }
      return undefined;
    };
    assert.equal(code(() => parseScopeFlag('deploys')), 40025);
    assert.equal(code(() => parseScopeFlag('deploys:often')), 40025);
    assert.equal(code(() => parseScopeFlag(':rw')), 40009);
    assert.equal(code(() => parseScopeFlag('a/b:rw')), 40009);
    assert.equal(code(() => parseScopes([{ topic: 'constructor', permission: 'constructor' }])), 40025);
    assert.equal(code(() => parseScopes(Array.from({ length: maxTokenScopes + 1 }, () => ({ topic: 't', permission: 'rw' })))), 40093);
    assert.equal(code(() => parseScopes(Array.from({ length: maxTokenScopes }, () => ({ topic: 't', permission: 'rw' })))), undefined);
    assert.equal(code(() => parseScopes(null)), 40024);
  });

  it('any JSON gives scopes within the bound or one of the four errors, nothing else', () => {
    const item = fc.oneof(fc.record({ topic: fc.string({ maxLength: 70 }), permission: fc.constantFrom('rw', 'ro', 'wo', 'deny', 'x', '') }), fc.jsonValue());
    const input = fc.oneof(fc.jsonValue(), fc.array(item, { maxLength: 20 }));
    fc.assert(
      fc.property(input, (value) => {
        try {
          const scopes = parseScopes(value);
          assert.ok(scopes.length >= 1 && scopes.length <= maxTokenScopes);
          assert.deepEqual(decodeScopes(encodeScopes(scopes)), scopes, 'the stored form reads back the same');
        } catch (err) {
          assert.ok(err instanceof HttpError && [40009, 40024, 40025, 40093].includes(err.code), String(err));
        }
      }),
      { numRuns: 500 },
    );
  });
});

describe('token scopes — deciding', () => {
  it('the longest matching pattern decides, then write before read; no match refuses', () => {
    const scopes: TokenScope[] = [{ topic: 'deploys*', permission: rw }, { topic: 'deploys-prod', permission: ro }];
    assert.equal(scopesAllow(scopes, 'deploys-prod', 'write'), false);
    assert.equal(scopesAllow(scopes, 'deploys-prod', 'read'), true);
    assert.equal(scopesAllow(scopes, 'deploys-dev', 'write'), true);
    assert.equal(scopesAllow(scopes, 'builds', 'read'), false);
    assert.equal(scopesAllow([{ topic: 'a*', permission: ro }, { topic: 'a*', permission: wo }], 'ab', 'write'), true);
  });

  it('agrees with a brute-force reading: the first matching scope once sorted by length, write first', () => {
    const topicChar = fc.constantFrom('a', 'b', '-', '*');
    const pattern = fc.array(topicChar, { minLength: 1, maxLength: 5 }).map((c) => c.join(''));
    const scope = fc.record({ topic: pattern, permission: fc.constantFrom(ro, wo, rw, { read: false, write: false }) });
    const topic = fc.array(fc.constantFrom('a', 'b', '-'), { minLength: 1, maxLength: 6 }).map((c) => c.join(''));
    fc.assert(
      fc.property(fc.array(scope, { minLength: 1, maxLength: 6 }), topic, fc.constantFrom('read' as const, 'write' as const), (scopes, t, want) => {
        const sorted = [...scopes].sort((x, y) => y.topic.length - x.topic.length || Number(y.permission.write) - Number(x.permission.write));
        const decider = sorted.find((s) => topicPatternRegExp(s.topic).test(t));
        assert.equal(scopesAllow(scopes, t, want), decider?.permission[want] ?? false);
      }),
      { numRuns: 500 },
    );
  });
});
