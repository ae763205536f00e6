import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { HttpError, errors } from '../../src/model/errors.js';
import { Gate, runGuards, type Guard } from '../../src/transports/guards/guard.js';
import { requestRate } from '../../src/transports/guards/request-rate.js';
import { subscriptionLimit } from '../../src/transports/guards/subscription-limit.js';
import { topicLimit } from '../../src/transports/guards/topic-limit.js';
import type { RequestInfo } from '../../src/transports/http/request.js';
import { webSocketGuards } from '../../src/transports/routes.js';
import type { SubscribeParams } from '../../src/transports/subscribe/params.js';
import { Subscriber } from '../../src/transports/subscribe/subscriber.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** A guard that notes its name in the subject, then throws `refusal` if given. */
const noting =
  (name: string, refusal?: HttpError): Guard<string[]> =>
  (seen) => {
    seen.push(name);
    if (refusal) throw refusal;
  };

/** The same, after waiting a microtask (as a guard reading the auth store does). */
const waiting =
  (name: string, refusal?: HttpError): Guard<string[]> =>
  (seen) =>
    Promise.resolve().then(() => noting(name, refusal)(seen));

const code = async (run: () => void | Promise<void>): Promise<number | undefined> => {
  try {
    await run();
    return undefined;
  } catch (err) {
    return err instanceof HttpError ? err.code : -1;
  }
};

const request = (): RequestInfo => ({ method: 'GET', path: '/t/json', headers: new Map(), query: new Map(), remoteAddress: '198.51.100.7', seen: {} });

let s: TestServer;
/** Default settings (no auth-file), for whole admissions. */
let plain: TestServer;
before(async () => {
  s = await startTestServer({ 'global-topic-limit': 2, 'disallowed-topics': ['secret'], 'visitor-subscription-limit': 1 });
  plain = await startTestServer();
});
after(async () => {
  await s.server.close();
  await plain.server.close();
});

describe('guards — running a chain', () => {
  it('synchronous guards run synchronously, in order, and the first refusal stops the chain', () => {
    const seen: string[] = [];
    assert.equal(runGuards([noting('a'), noting('b')], seen), undefined, 'no promise when none waits');
    assert.deepEqual(seen, ['a', 'b']);
    const refused: string[] = [];
    assert.throws(() => runGuards([noting('a'), noting('b', errors.tooManyRequests), noting('c', errors.forbidden)], refused), errors.tooManyRequests);
    assert.deepEqual(refused, ['a', 'b']);
  });

  it('a guard that waits makes the rest wait, still in order; a refusal after it rejects', async () => {
    const seen: string[] = [];
    const run = runGuards([noting('a'), waiting('b'), noting('c')], seen);
    assert.ok(run instanceof Promise);
    assert.deepEqual(seen, ['a'], 'the guards after the waiting one have not run yet');
    await run;
    assert.deepEqual(seen, ['a', 'b', 'c']);
    const refused: string[] = [];
    assert.equal(await code(() => runGuards([waiting('a', errors.unauthorized), noting('b', errors.forbidden)], refused)), 40101);
    assert.deepEqual(refused, ['a']);
  });
});

describe('guards — the gate', () => {
  it('a subscription slot is given back once on release, and at once when taken after it', () => {
    const ctx = plain.server.context;
    const admitted = (): Gate => {
      const gate = new Gate(ctx, { ...request(), remoteAddress: '198.51.100.9' }, ['t']);
      runGuards([requestRate('own')], gate);
      return gate;
    };
    admitted(); // a first visit is not kept: the visitor below is the one kept from the second on
    const [first, second] = [admitted(), admitted()];
    first.holdSubscription();
    second.holdSubscription();
    assert.equal(first.visitor.subscriptions, 2);
    first.release();
    first.release();
    assert.equal(first.visitor.subscriptions, 1);
    const late = admitted();
    late.release();
    late.holdSubscription();
    assert.equal(late.visitor.subscriptions, 1);
    second.release();
    assert.equal(second.visitor.subscriptions, 0);
  });

  it('the subscription limit takes a slot (42903 past visitor-subscription-limit) and release gives it back', () => {
    const first = new Gate(s.server.context, request(), ['t']);
    runGuards([requestRate('own'), subscriptionLimit], first);
    const second = new Gate(s.server.context, request(), ['t']);
    assert.throws(() => runGuards([requestRate('own'), subscriptionLimit], second), errors.tooManySubscriptions);
    first.release();
    assert.equal(runGuards([requestRate('own'), subscriptionLimit], second), undefined);
    assert.equal(second.visitor.subscriptions, 1);
    second.release();
    assert.equal(second.visitor.subscriptions, 0);
  });

  it('the topic limit names a disallowed topic 40010 for a publish, 40009 for a subscription; the limit is 42904 for both', () => {
    const ctx = s.server.context;
    const gate = (topics: string[]): Gate => new Gate(ctx, request(), topics);
    assert.throws(() => runGuards([requestRate('own'), topicLimit('publish')], gate(['ok', 'secret'])), errors.topicDisallowed);
    assert.throws(() => runGuards([requestRate('own'), topicLimit('subscribe')], gate(['ok', 'secret'])), errors.topicInvalid);
    runGuards([requestRate('own'), topicLimit('publish')], gate(['a', 'b']));
    assert.throws(() => runGuards([requestRate('own'), topicLimit('publish')], gate(['c'])), errors.tooManyTopics);
    assert.throws(() => runGuards([requestRate('own'), topicLimit('subscribe')], gate(['c'])), errors.tooManyTopics);
    assert.equal(runGuards([requestRate('own'), topicLimit('subscribe')], gate(['a'])), undefined, 'a known topic is always admitted');
  });
});

describe('guards — the WebSocket admission', () => {
  /** Admits a WebSocket subscription to `topic` through the route's guards; tells whether it waited and was accepted. */
  const admitWs = async (query: [string, string][]): Promise<{ waited: boolean; accepted: boolean }> => {
    let accepted = false;
    const admission = { gone: false, opensBeforeAccept: (p: SubscribeParams) => p.since.kind !== 'none', accept: () => void (accepted = true) };
    const req = { ...request(), path: '/ws-admission/ws', query: new Map(query) };
    const subscriber = new Subscriber(plain.server.context, admission, req, ['ws-admission'], webSocketGuards);
    const waiting = subscriber.admit();
    await waiting;
    subscriber.gate.release();
    return { waited: waiting instanceof Promise, accepted };
  };

  it('without an auth-file and without a replay it is accepted synchronously (the upgrade\'s fast path); a replay makes it wait', async () => {
    assert.deepEqual(await admitWs([]), { waited: false, accepted: true });
    assert.deepEqual(await admitWs([['since', 'all']]), { waited: true, accepted: true });
  });
});
