import assert from 'node:assert/strict';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import bcrypt from 'bcryptjs';
import type { AuthStore } from '../../src/store/auth-store.js';
import type { Json } from '../support/clients.js';
import { apiCall, statusAndCode } from '../support/account-api.js';
import { LogCapture } from '../support/log.js';
import { Scrape } from '../support/prometheus.js';
import { startTestServer, tempDir, type TestServer } from '../support/server.js';
import { TwilioPeer, type TwilioRequest } from '../support/twilio-peer.js';
import { pro } from '../store/contracts/auth-fixtures.js';

/**
 * Phone calls (X-Call) and phone-number verification: a real server whose official twilio
 * SDK is pointed at a Twilio-API-compatible peer the test runs (twilio-calls-base-url,
 * twilio-verify-base-url), which records the exact REST calls the SDK makes.
 */

const account = 'AC0123456789abcdef0123456789abcdef';
const authToken = 'twilio-secret';
const verifyService = 'VA0123456789abcdef0123456789abcdef';
const from = '+18775132586';
const callLimit = 6;
const hash = bcrypt.hashSync('secret', 4);
const basic = (user: string): string => `Basic ${Buffer.from(`${user}:secret`).toString('base64')}`;

let peer: TwilioPeer;
let s: TestServer;
let store: AuthStore;
const log = new LogCapture();
before(async () => {
  peer = await TwilioPeer.start('123456');
  s = await startTestServer(
    {
      'base-url': 'http://tocsin.test',
      'auth-file': join(tempDir(), 'auth.db'),
      'auth-users': [`phil:${hash}:user`, `ben:${hash}:user`, `tierless:${hash}:user`, `admin:${hash}:admin`],
      'twilio-account': account,
      'twilio-auth-token': authToken,
      'twilio-phone-number': from,
      'twilio-verify-service': verifyService,
      'twilio-calls-base-url': peer.url,
      'twilio-verify-base-url': peer.url,
      'enable-metrics': true,
    },
    log.logger,
  );
  store = s.server.context.access!.store;
  await store.putTier({ ...pro, callLimit }, false);
  await store.putTier({ ...pro, code: 'free', name: 'Free', callLimit: 0 }, false);
  await store.changeTier('phil', 'pro');
  await store.changeTier('ben', 'free');
});
after(async () => {
  await s.server.close();
  peer.close();
});

const request = (method: string, path: string, authorization?: string, body?: unknown, headers?: Record<string, string>): Promise<[number, Json]> =>
  apiCall(s.url, method, path, authorization, body, headers);

const code = statusAndCode;

const publish = (topic: string, body: string, headers: Record<string, string>, user?: string): Promise<[number, Json]> =>
  request('POST', `/${topic}`, user && basic(user), body, headers);

const accountOf = async (user: string): Promise<Json> => (await request('GET', '/v1/account', basic(user)))[1];

/** What the SDK sent: the method, path, credentials and content type every request must carry. */
function assertSdkRequest(req: TwilioRequest, path: string, form: Record<string, string>): void {
  assert.deepEqual(
    { method: req.method, path: req.path, auth: req.auth, contentType: req.contentType, form: req.form },
    { method: 'POST', path, auth: `${account}:${authToken}`, contentType: 'application/x-www-form-urlencoded', form },
  );
}

const verifications = `/v2/Services/${verifyService}/Verifications`;
const verificationCheck = `/v2/Services/${verifyService}/VerificationCheck`;
const callsPath = `/2010-04-01/Accounts/${account}/Calls.json`;

describe('phone calls — verifying a number (PUT|DELETE /v1/account/phone)', () => {
  it('sends a code through Twilio Verify, checks it, and lists the number in the account', async () => {
    // Given phil on a tier with calls, when he asks for a code by SMS
    assert.deepEqual(await request('PUT', '/v1/account/phone/verify', basic('phil'), { number: '+12223334444', channel: 'sms' }), [200, { success: true }]);
    // Then Twilio Verify was asked to send it
    assertSdkRequest(await peer.requests.take(5000), verifications, { To: '+12223334444', Channel: 'sms' });
    // When he sends a wrong code, then it is refused, and the number is not his
    assert.deepEqual(await code(request('PUT', '/v1/account/phone', basic('phil'), { number: '+12223334444', code: '000000' })), [400, 40000]);
    assertSdkRequest(await peer.requests.take(5000), verificationCheck, { To: '+12223334444', Code: '000000' });
    assert.equal((await accountOf('phil')).phone_numbers, undefined);
    // When he sends the right one, then the number is his
    assert.deepEqual(await request('PUT', '/v1/account/phone', basic('phil'), { number: '+12223334444', code: '123456' }), [200, { success: true }]);
    assertSdkRequest(await peer.requests.take(5000), verificationCheck, { To: '+12223334444', Code: '123456' });
    assert.deepEqual((await accountOf('phil')).phone_numbers, ['+12223334444']);
    // And a check with no verification under way (approved ones end) is 41001
    assert.deepEqual(await code(request('PUT', '/v1/account/phone', basic('phil'), { number: '+12223334444', code: '123456' })), [410, 41001]);
    await peer.requests.take(5000);
    // And asking again for a number he has is 40904, Twilio not asked
    assert.deepEqual(await code(request('PUT', '/v1/account/phone/verify', basic('phil'), { number: '+12223334444', channel: 'call' })), [409, 40904]);
  });

  it('a second number by call; a number added meanwhile (another session) is 40904 at the check', async () => {
    assert.deepEqual(await request('PUT', '/v1/account/phone/verify', basic('phil'), { number: '+4917612345678', channel: 'call' }), [200, { success: true }]);
    assertSdkRequest(await peer.requests.take(5000), verifications, { To: '+4917612345678', Channel: 'call' });
    await store.addPhoneNumber('phil', '+4917612345678');
    assert.deepEqual(await code(request('PUT', '/v1/account/phone', basic('phil'), { number: '+4917612345678', code: '123456' })), [409, 40904]);
    await peer.requests.take(5000);
    assert.deepEqual((await accountOf('phil')).phone_numbers, ['+12223334444', '+4917612345678']);
  });

  it('refuses anonymous visitors, users on no tier or one without calls, a bad number or channel, as ntfy', async () => {
    const verify = (user: string | undefined, body: unknown): Promise<[number, unknown]> => code(request('PUT', '/v1/account/phone/verify', user && basic(user), body));
    const ok = { number: '+15550001111', channel: 'sms' };
    assert.deepEqual(await verify(undefined, ok), [401, 40101]);
    assert.deepEqual(await verify('ben', ok), [401, 40101], 'his tier has no calls');
    assert.deepEqual(await verify('tierless', ok), [401, 40101]);
    assert.deepEqual(await verify('phil', { number: '+15550001111', channel: 'fax' }), [400, 40036]);
    assert.deepEqual(await verify('phil', { number: '5550001111', channel: 'sms' }), [400, 40033], 'the number before the channel');
    assert.deepEqual(await verify('phil', '{"number":'), [400, 40024]);
    assert.deepEqual(await code(request('PUT', '/v1/account/phone', basic('phil'), { number: 'call me', code: '1' })), [400, 40033]);
    assert.deepEqual(await code(request('DELETE', '/v1/account/phone', undefined, { number: '+15550001111' })), [401, 40101]);
    // An admin may, tier or not (ntfy checks the tier of users only)
    assert.deepEqual(await verify('admin', ok), [200, { success: true }]);
    assertSdkRequest(await peer.requests.take(5000), verifications, { To: '+15550001111', Channel: 'sms' });
  });

  it('DELETE /v1/account/phone removes a number; one the user does not have is no error', async () => {
    await store.addPhoneNumber('ben', '+15557770000');
    assert.deepEqual(await request('DELETE', '/v1/account/phone', basic('ben'), { number: '+15557770000' }), [200, { success: true }]);
    assert.deepEqual(await request('DELETE', '/v1/account/phone', basic('ben'), { number: '+15557770000' }), [200, { success: true }]);
    assert.equal((await accountOf('ben')).phone_numbers, undefined);
  });

  it('/v1/config and /config.js tell the web app calls are on', async () => {
    assert.equal((await request('GET', '/v1/config'))[1].enable_calls, true);
    assert.match(await (await fetch(`${s.url}/config.js`)).text(), /"enable_calls": true/);
  });
});

describe('phone calls — publishing with X-Call', () => {
  it('answers the publish at once; the call goes to Calls.json with From, To, ntfy\'s TwiML (escaped) and Basic auth', async () => {
    // Given a Twilio that holds its answer back
    let answer: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (answer = resolve));
    peer.answerCall = async () => {
      await held;
      return { status: 201, body: { sid: 'CA0000000000000000000000000000000b', status: 'queued' } };
    };
    const before = await Scrape.of(`${s.url}/metrics`);
    // When phil publishes with X-Call, then he is answered while Twilio has not answered yet
    const [status, message] = await publish('alerts', 'Fire <in> the "garage" & \'shed\'', { 'X-Call': '+4917612345678' }, 'phil');
    assert.equal(status, 200);
    assert.equal(message.message, 'Fire <in> the "garage" & \'shed\'');
    const sent = await peer.requests.take(5000);
    answer();
    // And Twilio got the call: from twilio-phone-number, to the number, saying ntfy's text with the message escaped
    assertSdkRequest(sent, callsPath, {
      From: from,
      To: '+4917612345678',
      Twiml:
        '\n<Response>\n\t<Pause length="1"/>\n\t<Say loop="3">\n' +
        '\t\tYou have a message from notify on topic alerts. Message:\n\t\t<break time="1s"/>\n' +
        '\t\tFire &lt;in&gt; the &#34;garage&#34; &amp; &#39;shed&#39;\n\t\t<break time="1s"/>\n\t\tEnd of message.\n\t\t<break time="1s"/>\n' +
        '\t\tThis message was sent by user phil. It will be repeated three times.\n' +
        '\t\tTo unsubscribe from calls like this, remove your phone number in the notify web app.\n\t\t<break time="3s"/>\n' +
        '\t</Say>\n\t<Say>Goodbye.</Say>\n</Response>',
    });
    // And it is counted and logged once Twilio took it
    await log.next((r) => r.msg === 'phone call placed' && r.twilio_sid === 'CA0000000000000000000000000000000b');
    const later = await Scrape.of(`${s.url}/metrics`);
    assert.equal(later.value('ntfy_calls_made_success') - before.value('ntfy_calls_made_success'), 1);
    assert.equal(later.value('ntfy_calls_made_failure'), before.value('ntfy_calls_made_failure'));
  });

  it('`yes` calls the first verified number; `call` in a JSON publish too', async () => {
    peer.answerCall = () => ({ status: 201, body: { sid: 'CA0000000000000000000000000000000c', status: 'queued' } });
    assert.equal((await publish('alerts', 'one', { Call: 'yes' }, 'phil'))[0], 200);
    assert.deepEqual([(await peer.requests.take(5000)).form.To], ['+12223334444']);
    assert.equal((await request('POST', '/', basic('phil'), { topic: 'alerts', message: 'two', call: '+4917612345678' }))[0], 200);
    const sent = await peer.requests.take(5000);
    assert.deepEqual([sent.form.To, /Message:\n\t\t<break time="1s"\/>\n\t\ttwo\n/.test(sent.form.Twiml ?? '')], ['+4917612345678', true]);
  });

  it('refuses in ntfy\'s order: 40033 invalid number, 40037 with a delay, 40035 anonymous, 40034 not verified', async () => {
    const calls = peer.callCount;
    assert.deepEqual(await code(publish('alerts', 'x', { 'X-Call': '12ab', In: '30m' }, 'phil')), [400, 40033], 'the number before the delay');
    assert.deepEqual(await code(publish('alerts', 'x', { 'X-Call': '12ab' })), [400, 40033], 'before who asks');
    assert.deepEqual(await code(publish('alerts', 'x', { 'X-Call': 'yes', In: '30m' }, 'phil')), [400, 40037]);
    assert.deepEqual(await code(publish('alerts', 'x', { 'X-Call': '+12223334444', In: '30m' })), [400, 40037], 'the delay before who asks');
    assert.deepEqual(await code(publish('alerts', 'x', { 'X-Call': '+12223334444' })), [400, 40035]);
    assert.deepEqual(await code(publish('alerts', 'x', { 'X-Call': '+19998887777' }, 'phil')), [400, 40034]);
    assert.deepEqual(await code(publish('alerts', 'x', { 'X-Call': 'yes' }, 'tierless')), [400, 40034], 'no numbers at all');
    assert.equal(peer.callCount, calls, 'no call was placed');
  });

  it('a call Twilio refuses is logged and counted as a failure; the publish was answered 200 all the same', async () => {
    peer.answerCall = () => ({ status: 400, body: { code: 21211, message: "The 'To' number is not a valid phone number.", status: 400 } });
    const failures = (await Scrape.of(`${s.url}/metrics`)).value('ntfy_calls_made_failure');
    assert.equal((await publish('alerts', 'refused', { 'X-Call': 'yes' }, 'phil'))[0], 200);
    await peer.requests.take(5000);
    const line = await log.next((r) => r.msg === 'phone call failed');
    assert.deepEqual([line.level, line.topic, line.twilio_to, line.error, line.twilio_status, line.twilio_code], [40, 'alerts', '+12223334444', "The 'To' number is not a valid phone number.", 400, 21211]);
    assert.doesNotMatch(JSON.stringify(line), new RegExp(Buffer.from(`${account}:${authToken}`).toString('base64')), 'no credentials in the log');
    assert.equal((await Scrape.of(`${s.url}/metrics`)).value('ntfy_calls_made_failure'), failures + 1);
  });

  it('the tier\'s daily call limit: 42910 once used up; the account shows calls used and left', async () => {
    peer.answerCall = () => ({ status: 201, body: { sid: 'CA0000000000000000000000000000000d', status: 'queued' } });
    const { stats, limits } = (await accountOf('phil')) as { stats: Json; limits: Json };
    assert.equal(limits.calls, callLimit);
    const used = stats.calls as number;
    assert.deepEqual([used, stats.calls_remaining], [4, 2], 'four calls so far: the held one, yes, JSON, the refused one');
    for (let i = used; i < callLimit; i++) assert.equal((await publish('alerts', 'again', { 'X-Call': 'yes' }, 'phil'))[0], 200);
    assert.deepEqual(await code(publish('alerts', 'too many', { 'X-Call': 'yes' }, 'phil')), [429, 42910]);
    const later = (await accountOf('phil')).stats as Json;
    assert.deepEqual([later.calls, later.calls_remaining], [callLimit, 0]);
    assert.equal((await publish('alerts', 'no call', {}, 'phil'))[0], 200, 'publishing without a call still works');
  });
});

describe('phone calls — Twilio unreachable', () => {
  it('the publish is answered and the failed call logged; a verification fails with 50001, logged without the credentials', async () => {
    const gone = await TwilioPeer.start();
    gone.close(); // its port now refuses connections
    const down = new LogCapture();
    const u = await startTestServer(
      {
        'base-url': 'http://tocsin.test', 'auth-file': join(tempDir(), 'auth.db'), 'auth-users': [`phil:${hash}:user`],
        'twilio-account': account, 'twilio-auth-token': authToken, 'twilio-phone-number': from, 'twilio-verify-service': verifyService,
        'twilio-calls-base-url': gone.url, 'twilio-verify-base-url': gone.url,
      },
      down.logger,
    );
    after(() => u.server.close());
    const auth = u.server.context.access!.store;
    await auth.putTier({ ...pro, callLimit }, false);
    await auth.changeTier('phil', 'pro');
    await auth.addPhoneNumber('phil', '+12223334444');
    const res = await fetch(`${u.url}/alerts`, { method: 'POST', body: 'x', headers: { Call: 'yes', Authorization: basic('phil') } });
    assert.equal(res.status, 200);
    const failed = await down.next((r) => r.msg === 'phone call failed');
    assert.match(failed.error as string, /ECONNREFUSED/);
    const verify = await fetch(`${u.url}/v1/account/phone/verify`, { method: 'PUT', body: JSON.stringify({ number: '+15550001111', channel: 'sms' }), headers: { Authorization: basic('phil') } });
    assert.deepEqual([verify.status, ((await verify.json()) as Json).code], [500, 50001]);
    const logged = await down.next((r) => r.msg === 'Twilio Verify request failed');
    assert.deepEqual([logged.user, logged.twilio_to], ['phil', '+15550001111']);
    assert.doesNotMatch(JSON.stringify(down.records), new RegExp(`${authToken}|${Buffer.from(`${account}:${authToken}`).toString('base64')}`), 'no credentials in any log line');
  });
});

describe('phone calls — off', () => {
  it('without twilio-account X-Call is 40032, the phone API 404 and enable_calls false', async () => {
    const off = await startTestServer({ 'auth-file': join(tempDir(), 'auth.db'), 'auth-users': [`phil:${hash}:user`] });
    after(() => off.server.close());
    const res = await fetch(`${off.url}/alerts`, { method: 'POST', body: 'x', headers: { 'X-Call': '+12223334444', Authorization: basic('phil') } });
    assert.deepEqual([res.status, ((await res.json()) as Json).code], [400, 40032]);
    const phone = await fetch(`${off.url}/v1/account/phone/verify`, { method: 'PUT', body: JSON.stringify({ number: '+12223334444', channel: 'sms' }), headers: { Authorization: basic('phil') } });
    assert.deepEqual([phone.status, ((await phone.json()) as Json).code], [404, 40401]);
    assert.equal(((await (await fetch(`${off.url}/v1/config`)).json()) as Json).enable_calls, false);
  });
});

describe('phone calls — twilio-call-format', () => {
  it('a custom format says title, priority, tags and message, escaped; one that fails on a message is a counted, logged failure', async () => {
    const own = await TwilioPeer.start();
    after(() => own.close());
    const custom = new LogCapture();
    const u = await startTestServer(
      {
        'base-url': 'http://tocsin.test', 'auth-file': join(tempDir(), 'auth.db'), 'auth-users': [`phil:${hash}:user`],
        'twilio-account': account, 'twilio-auth-token': authToken, 'twilio-phone-number': from, 'twilio-verify-service': verifyService,
        'twilio-calls-base-url': own.url, 'twilio-verify-base-url': own.url, 'enable-metrics': true,
        'twilio-call-format': '<Response><Say>{{.Title}} ({{.Priority}}, {{index .Tags 0}}): {{.Message}}, from {{.Sender}} on {{.Topic}}</Say></Response>',
      },
      custom.logger,
    );
    after(() => u.server.close());
    const auth = u.server.context.access!.store;
    await auth.putTier({ ...pro, callLimit }, false);
    await auth.changeTier('phil', 'pro');
    await auth.addPhoneNumber('phil', '+12223334444');
    own.answerCall = () => ({ status: 201, body: { sid: 'CA0000000000000000000000000000000e', status: 'queued' } });
    const send = (headers: Record<string, string>, body: string): Promise<Response> =>
      fetch(`${u.url}/alerts`, { method: 'POST', body, headers: { Call: 'yes', Authorization: basic('phil'), ...headers } });
    // When phil publishes a hostile title with priority and tags
    assert.equal((await send({ Title: '</Say><Hangup/>', Priority: 'high', Tags: 'fire,a]]>b' }, 'Fire & <smoke>')).status, 200);
    // Then Twilio is told the custom TwiML, every field as text
    assertSdkRequest(await own.requests.take(5000), callsPath, {
      From: from,
      To: '+12223334444',
      Twiml: '<Response><Say>&lt;/Say&gt;&lt;Hangup/&gt; (4, fire): Fire &amp; &lt;smoke&gt;, from phil on alerts</Say></Response>',
    });
    await custom.next((r) => r.msg === 'phone call placed');
    // When a message has no tags, the format's `index .Tags 0` fails: no call, one failure counted and logged
    const failures = (await Scrape.of(`${u.url}/metrics`)).value('ntfy_calls_made_failure');
    const calls = own.callCount;
    assert.equal((await send({}, 'no tags')).status, 200);
    const line = await custom.next((r) => r.msg === 'twilio-call-format failed');
    assert.deepEqual([line.level, line.topic, line.twilio_to], [40, 'alerts', '+12223334444']);
    assert.match(line.error as string, /error calling index: index out of range: 0/);
    assert.equal((await Scrape.of(`${u.url}/metrics`)).value('ntfy_calls_made_failure'), failures + 1);
    assert.equal(own.callCount, calls, 'Twilio was not asked');
  });
});
