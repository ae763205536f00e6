import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import webpush from 'web-push';
import { deliverPush, standInPushSubscription, webPushSettings } from '../support/browser-push.js';
import { freshContext, launchBrowser, logInAs, noChromium, shownNotifications, waitInPage } from '../support/browser.js';
import { publish } from '../support/clients.js';
import { PushService } from '../support/push-service.js';
import { tempDir, type TestServer } from '../support/server.js';
import { adminPassword, startWebServer } from '../support/web-server.js';

/**
 * Sessions that last (issue 40, item 2): the web app renews its login token before it runs
 * out, keeps its streams, and logging out leaves nothing of the account behind. A 4-second
 * login-token-duration lets the renewal be seen past the first token's expiry.
 */

const lifetimeSeconds = 4;
const vapid = webpush.generateVAPIDKeys();
// Started here, not in `before`: the closing hook it registers would run as soon as `before` ended.
const service = await PushService.start(vapid.publicKey);
let s: TestServer;
let browser: Browser;
const dir = tempDir();
before(async () => {
  if (noChromium) return;
  const settings = { ...webPushSettings(dir, service, vapid), 'login-token-duration': `${lifetimeSeconds}s`, 'auth-default-access': 'deny-all' };
  [s, browser] = await Promise.all([startWebServer(dir, settings), launchBrowser()]);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

const basicAdmin = { Authorization: `Basic ${Buffer.from(`admin:${adminPassword}`).toString('base64')}` };

interface StoredSession {
  username: string;
  token: string;
  expires: number;
}

const storedSession = async (page: Page): Promise<StoredSession | null> => JSON.parse((await page.evaluate('localStorage.getItem("tocsin.session")')) as string) as StoredSession | null;

const accountStatus = async (token: string): Promise<number> => (await fetch(`${s.url}/v1/account`, { headers: { Authorization: `Bearer ${token}` } })).status;

describe('web app in Chromium — sessions that last', { skip: noChromium }, () => {
  it('renews the login token past its first expiry: the open stream and a reload still read the protected topic', async () => {
    // Given: a logged-in tab on a topic only logged-in users may read, and a token of the same lifetime nobody renews.
    const context = await freshContext(browser);
    const page = await logInAs(context, s.url, 'admin', adminPassword);
    const first = await storedSession(page);
    assert.ok(first && Math.abs(first.expires - (Date.now() / 1000 + lifetimeSeconds)) <= 2, JSON.stringify(first));
    const unrenewed = (await publish(`${s.url}/v1/account/token`, '', basicAdmin)).json.token as string;
    await page.goto(`${s.url}/vault`);
    await page.locator('.state-live').waitFor();

    // When: the first expiry passes, by two seconds.
    await waitInPage(page, `Date.now() / 1000 > ${first.expires + 2}`, (lifetimeSeconds + 5) * 1000);

    // Then: the session holds the same token, with a later expiry, that the server still takes; the other token ran out.
    const renewed = await storedSession(page);
    assert.equal(renewed?.token, first.token);
    assert.ok(renewed && renewed.expires > first.expires, `expires ${renewed?.expires} after ${first.expires}`);
    assert.deepEqual([await accountStatus(first.token), await accountStatus(unrenewed)], [200, 401]);

    // And: the open stream still delivers, and a reload (new connections with the token) reads the topic again.
    await publish(`${s.url}/vault`, 'still here', basicAdmin);
    await page.locator('.card', { hasText: 'still here' }).waitFor();
    await page.reload();
    await page.locator('.state-live').waitFor();
    await page.locator('.card', { hasText: 'still here' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'admin', exact: true }).count(), 1, 'still logged in');
    await context.close();
  });

  it('a token that ran out while the app was closed ends the session when it opens: logged out, its topics cleared', async () => {
    const context = await freshContext(browser);
    const page = await logInAs(context, s.url, 'admin', adminPassword);
    await page.goto(`${s.url}/vault`);
    await page.locator('.state-live').waitFor();
    const { token, expires } = (await storedSession(page)) as StoredSession;
    await page.goto('about:blank'); // the app is closed: nothing renews the token
    await waitInPage(page, `Date.now() / 1000 > ${expires + 1}`, (lifetimeSeconds + 5) * 1000);
    assert.equal(await accountStatus(token), 401);

    await page.goto(`${s.url}/`);
    await page.getByRole('link', { name: 'Log in' }).waitFor();
    await waitInPage(page, 'localStorage.getItem("tocsin.subscriptions") === "[]"');
    assert.equal(await storedSession(page), null);
    await context.close();
  });

  it('logging out clears the browser: session, topics, background notifications at the server and in the browser, shown notifications', async () => {
    // Given: a logged-in user with background notifications on for a protected topic, and one of its messages on screen.
    const context = await freshContext(browser);
    await context.grantPermissions(['notifications']);
    const pushBrowser = service.browser('chromium-logout');
    await standInPushSubscription(context, pushBrowser);
    const page = await logInAs(context, s.url, 'admin', adminPassword);
    await page.goto(`${s.url}/vault`);
    await page.locator('.state-live').waitFor();
    await page.goto(`${s.url}/settings`);
    await page.locator('input[name=background-notifications]').check();
    await page.getByText('Background notifications are on for this browser.').waitFor();
    assert.deepEqual((await s.server.context.webPush!.store.forTopic('vault')).map((w) => [w.endpoint, w.userId]), [[pushBrowser.endpoint, 'admin']]);
    await publish(`${s.url}/vault`, 'launch codes', basicAdmin);
    const push = await service.pushes.take(5000);
    await deliverPush(context, s.url, push.payload);
    assert.equal((await shownNotifications(page, 1))[0]?.body, 'launch codes');

    // When: the user logs out.
    await page.goto(`${s.url}/account`);
    await page.getByRole('button', { name: 'Log out' }).click();
    await page.getByRole('link', { name: 'Log in' }).waitFor();

    // Then: nothing of the account is left in the browser or subscribed at the server.
    await waitInPage(page, 'localStorage.getItem("test.push-subscription") === null');
    assert.deepEqual(await s.server.context.webPush!.store.forTopic('vault'), []);
    assert.deepEqual(await shownNotifications(page, 0), []);
    assert.equal(await storedSession(page), null);
    assert.equal(await page.evaluate('localStorage.getItem("tocsin.subscriptions")'), '[]');
    await context.close();
  });
});
