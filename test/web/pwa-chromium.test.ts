import assert from 'node:assert/strict';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, it } from 'node:test';
import { chromium, type Browser } from 'playwright-core';
import webpush from 'web-push';
import { deliverPush, standInPushSubscription, webPushSettings } from '../support/browser-push.js';
import { chromiumPath, freshContext, launchBrowser, noChromium, openTopic, shownNotifications } from '../support/browser.js';
import { LineStream, publish } from '../support/clients.js';
import { PushService } from '../support/push-service.js';
import { tempDir, type TestServer } from '../support/server.js';
import { startWebServer } from '../support/web-server.js';

/** The installable app (issue 40, item 1): manifest, icons, service worker and background notifications by Web Push. */

const vapid = webpush.generateVAPIDKeys();
let s: TestServer;
// Started here, not in `before`: the closing hook it registers would run as soon as `before` ended.
const service = await PushService.start(vapid.publicKey);
let browser: Browser;
const dir = tempDir();
before(async () => {
  if (noChromium) return;
  [s, browser] = await Promise.all([
    startWebServer(dir, webPushSettings(dir, service, vapid)),
    launchBrowser(),
  ]);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));
after(() => assert.deepEqual(service.problems, [], 'every push passed the push service\'s checks'));

/** The width and height a PNG's IHDR chunk states. */
function pngSize(bytes: Buffer): [number, number] {
  assert.equal(bytes.subarray(1, 4).toString(), 'PNG');
  return [bytes.readUInt32BE(16), bytes.readUInt32BE(20)];
}

const endpointsOf = async (topic: string): Promise<string[]> => (await s.server.context.webPush!.store.forTopic(topic)).map((w) => w.endpoint);

describe('web app in Chromium — installable app', { skip: noChromium }, () => {
  it('serves the manifest, the worker and the icons with their types, and the icons at their sizes', async () => {
    const manifest = await fetch(`${s.url}/manifest.webmanifest`);
    assert.equal(manifest.headers.get('content-type'), 'application/manifest+json; charset=utf-8');
    const parsed = (await manifest.json()) as { start_url: string; scope: string; display: string; icons: { src: string; sizes: string; purpose?: string }[] };
    assert.deepEqual([parsed.start_url, parsed.scope, parsed.display], ['./', './', 'standalone'], 'relative, so a path prefix keeps working');
    const worker = await fetch(`${s.url}/sw.js`);
    assert.deepEqual([worker.status, worker.headers.get('content-type'), worker.headers.get('cache-control')], [200, 'text/javascript; charset=utf-8', 'no-cache']);
    for (const icon of [...parsed.icons.filter((i) => i.sizes !== 'any'), { src: 'static/apple-touch-icon.png', sizes: '180x180' }]) {
      const res = await fetch(`${s.url}/${icon.src}`);
      assert.equal(res.headers.get('content-type'), 'image/png', icon.src);
      assert.equal(pngSize(Buffer.from(await res.arrayBuffer())).join('x'), icon.sizes, icon.src);
    }
    assert.ok(parsed.icons.some((i) => i.purpose === 'maskable' && i.sizes === '512x512'), 'a maskable icon for Android');
  });

  it('registers the worker and the manifest under the page\'s Content-Security-Policy, and Chromium finds the app installable', async () => {
    // A real profile: Chromium's default, incognito one tells only that it installs nothing.
    const context = await chromium.launchPersistentContext(mkdtempSync(join(tmpdir(), 'tocsin-pwa-')), { executablePath: chromiumPath, args: ['--no-sandbox'] });
    try {
      await context.addInitScript('window.violations = []; document.addEventListener("securitypolicyviolation", (e) => window.violations.push(e.violatedDirective + " " + e.blockedURI));');
      const page = await context.newPage();
      await page.goto(`${s.url}/`);
      assert.equal(await page.evaluate('navigator.serviceWorker.ready.then((r) => r.active.scriptURL + " " + r.scope)'), `${s.url}/sw.js ${s.url}/`);
      const cdp = await context.newCDPSession(page);
      const manifest = await cdp.send('Page.getAppManifest');
      assert.deepEqual([manifest.url, manifest.errors], [`${s.url}/manifest.webmanifest`, []]);
      assert.deepEqual((await cdp.send('Page.getInstallabilityErrors')).installabilityErrors, []);
      assert.deepEqual(await page.evaluate('window.violations'), []);
    } finally {
      await context.close();
    }
  });
});

describe('web app in Chromium — background notifications (Web Push)', { skip: noChromium }, () => {
  it('with the page closed, the worker shows a pushed message: title, body, icon, actions; a click opens its topic', async () => {
    // Given: a visitor subscribed to `alerts` who turned background notifications on.
    const context = await freshContext(browser);
    await context.grantPermissions(['notifications']);
    const pushBrowser = service.browser('chromium-closed');
    await standInPushSubscription(context, pushBrowser);
    const page = await openTopic(context, s.url, 'alerts');
    await page.goto(`${s.url}/settings`);
    await page.locator('input[name=background-notifications]').check();
    await page.getByText('Background notifications are on for this browser.').waitFor();
    assert.deepEqual(await endpointsOf('alerts'), [pushBrowser.endpoint]);
    assert.equal(await page.evaluate('localStorage.getItem("test.push-subscription")'), Buffer.from(vapid.publicKey, 'base64url').toString('base64'), 'subscribed with the server\'s VAPID key');
    await page.close();

    // When: a message with actions is published while no page of the app is open.
    const sent = await publish(`${s.url}/alerts`, 'Disk full on srv1', {
      Title: 'Disk alert',
      Tags: 'rotating_light',
      Actions: `view, Open dashboard, https://grafana.example/d/1; http, Restart, ${s.url}/acks, body=restarted`,
    });
    const push = await service.pushes.take(5000);
    assert.equal(push.browser, 'chromium-closed');
    await deliverPush(context, s.url, push.payload);

    // Then: the worker shows it.
    const worker = context.serviceWorkers()[0];
    assert.ok(worker, 'the worker runs');
    const [shown] = await shownNotifications(worker, 1);
    assert.deepEqual(
      { title: shown?.title, body: shown?.body, icon: shown?.icon, tag: shown?.tag, actions: shown?.actions },
      {
        title: '🚨 Disk alert',
        body: 'Disk full on srv1',
        icon: `${s.url}/static/icon-192.png`,
        tag: sent.json.id,
        actions: [
          { action: '0', title: 'Open dashboard' },
          { action: '1', title: 'Restart' },
        ],
      },
    );

    // And: its http button sends the action's request from the worker (here to the server itself), leaving it shown.
    const acks = new LineStream(`${s.url}/acks/json`);
    assert.equal((await acks.nextJson()).event, 'open');
    await worker.evaluate(`self.registration.getNotifications().then(([n]) => self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n, action: '1' })))`);
    assert.equal((await acks.nextJson()).message, 'restarted');
    acks.close();
    assert.equal((await shownNotifications(worker, 1))[0]?.tag, sent.json.id);

    // And: a click on it (the browser's click, dispatched in the worker) brings an app tab to the topic.
    const tab = await context.newPage();
    await tab.goto(`${s.url}/`);
    await tab.evaluate('navigator.serviceWorker.ready');
    await worker.evaluate(`self.registration.getNotifications().then(([n]) => self.dispatchEvent(new NotificationEvent('notificationclick', { notification: n })))`);
    await tab.waitForURL(`${s.url}/alerts`);
    await tab.locator('.card', { hasText: 'Disk full on srv1' }).waitFor();
    assert.deepEqual(await shownNotifications(worker, 0), [], 'the clicked notification is closed');

    // And: turning background notifications off deletes the subscription at the server and in the browser.
    await tab.goto(`${s.url}/settings`);
    await tab.getByText('Background notifications are on for this browser.').waitFor(); // renewed at start
    await tab.locator('input[name=background-notifications]').uncheck();
    await tab.getByText('Background notifications are on for this browser.').waitFor({ state: 'detached' });
    assert.deepEqual(await endpointsOf('alerts'), []);
    assert.equal(await tab.evaluate('localStorage.getItem("test.push-subscription")'), null);
    await context.close();
  });
});

describe('web app in Chromium — the permission flow says why notifications are impossible', { skip: noChromium }, () => {
  it('over plain HTTP (a host name other than localhost): notifications need HTTPS, and no background option', async () => {
    const plain = await chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox', '--host-resolver-rules=MAP tocsin.test 127.0.0.1'] });
    try {
      const page = await (await freshContext(plain)).newPage();
      await page.goto(`${s.url.replace('127.0.0.1', 'tocsin.test')}/settings`);
      await page.getByText('Notifications are only possible over HTTPS').waitFor();
      assert.deepEqual(await page.evaluate('[window.isSecureContext, "serviceWorker" in navigator]'), [false, false]);
      assert.equal(await page.locator('input[name=background-notifications]').count(), 0);
    } finally {
      await plain.close();
    }
  });

  it('on iOS outside the Home Screen: add the app to the Home Screen first', async () => {
    const context = await freshContext(browser);
    // Safari on iPhone in a tab: navigator.standalone false, a touch screen.
    await context.addInitScript('Object.defineProperty(Navigator.prototype, "standalone", { get: () => false }); Object.defineProperty(Navigator.prototype, "maxTouchPoints", { get: () => 5 });');
    const page = await context.newPage();
    await page.goto(`${s.url}/settings`);
    await page.getByText('tap Share, then "Add to Home Screen"').waitFor();
    assert.equal(await page.locator('input[name=background-notifications]').count(), 0);
    await context.close();
  });

  it('where all is possible: a button asks for permission, and background notifications can be turned on', async () => {
    const page = await (await freshContext(browser)).newPage();
    await page.goto(`${s.url}/settings`);
    await page.getByRole('button', { name: 'Allow notifications' }).waitFor();
    assert.equal(await page.locator('input[name=background-notifications]').count(), 1);
    await page.context().close();
  });
});
