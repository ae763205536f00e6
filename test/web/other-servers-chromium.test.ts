import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { violations } from '../support/axe.js';
import { freshContext, launchBrowser, logInAs, noChromium, waitInPage } from '../support/browser.js';
import { publish } from '../support/clients.js';
import { tempDir, type TestServer } from '../support/server.js';
import { adminPassword, startWebServer } from '../support/web-server.js';

/**
 * Topics on other servers and their credentials in the web app (issue 40, item 4 "other
 * servers", item 3 "per-topic credentials"), in Chromium: the app is served by `home`, its
 * subscriptions are on `open` (anyone reads) and `vault` (deny-all, an admin), three real
 * Tocsins on their own 127.0.0.1 ports, so three origins.
 */

let home: TestServer;
let open: TestServer;
let vault: TestServer;
let browser: Browser;
const [homeDir, openDir, vaultDir] = [tempDir(), tempDir(), tempDir()];
const basic = (password: string): string => `Basic ${Buffer.from(`admin:${password}`).toString('base64')}`;

before(async () => {
  if (noChromium) return;
  [home, open, vault, browser] = await Promise.all([
    startWebServer(homeDir),
    startWebServer(openDir),
    startWebServer(vaultDir, { 'auth-default-access': 'deny-all' }),
    launchBrowser(),
  ]);
});
after(() => Promise.all([home?.server.close(), open?.server.close(), vault?.server.close(), browser?.close()]));

const host = (s: TestServer): string => new URL(s.url).host;

/** Subscribes through the sidebar's form to `topic` on the server at `baseUrl` (typed as a visitor would). */
async function subscribeElsewhere(page: Page, topic: string, baseUrl: string): Promise<void> {
  const form = page.locator('form.subscribe');
  await form.getByLabel('Topic to subscribe to').fill(topic);
  await form.getByLabel('Use another server').check();
  await form.getByLabel('Server URL').fill(baseUrl);
  await form.getByRole('button', { name: 'Subscribe' }).click();
}

/**
 * Every credential the context's pages send, by the origin it went to: Authorization headers
 * of HTTP requests, and the `auth` parameter of WebSockets (decoded), which carry no header.
 */
function recordCredentials(context: BrowserContext): { origin: string; credential: string }[] {
  const sent: { origin: string; credential: string }[] = [];
  context.on('request', (req) => {
    void req.allHeaders().then((headers) => {
      if (headers.authorization) sent.push({ origin: new URL(req.url()).origin, credential: headers.authorization });
    });
  });
  context.on('page', (page) =>
    page.on('websocket', (ws) => {
      const url = new URL(ws.url());
      const auth = url.searchParams.get('auth');
      if (auth) sent.push({ origin: url.origin.replace(/^ws/, 'http'), credential: Buffer.from(auth, 'base64url').toString() });
    }),
  );
  return sent;
}

describe('other servers in the web app, in Chromium (issue 40)', { skip: noChromium }, () => {
  it('subscribes to a topic on another server, lists it with its host, receives from it, and publishes to it there', async () => {
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.goto(home.url);
    await subscribeElsewhere(page, 'weather', `${open.url}/`);
    // ntfy's route for another server's topic: /{host}/{topic}.
    await page.waitForURL(`${home.url}/${host(open)}/weather`);
    await page.locator('.state-live').waitFor();
    assert.deepEqual(await page.locator('.topics a').allInnerTexts(), [`weather\n${host(open)}\n0`]);
    assert.equal(await page.locator('.topics a').getAttribute('aria-current'), 'page');

    const sent = await publish(`${open.url}/weather`, 'Rain at noon');
    await page.locator(`.card[data-id="${sent.json.id}"]`).waitFor();
    // The app's own server has no such message: it came from the other one.
    assert.equal(await (await fetch(`${home.url}/weather/json?poll=1`)).text(), '');

    await page.getByRole('button', { name: 'Publish' }).click();
    const dialog = page.getByRole('dialog', { name: `Publish to ${host(open)}/weather` });
    assert.equal(await dialog.locator('select[name=server]').inputValue(), open.url);
    await dialog.locator('textarea[name=message]').fill('Sun by three');
    await dialog.getByRole('button', { name: 'Send' }).click();
    await page.locator('.message-text', { hasText: 'Sun by three' }).waitFor();
    const stored = (await (await fetch(`${open.url}/weather/json?poll=1`)).text()).trim().split('\n').map((line) => (JSON.parse(line) as { message: string }).message);
    assert.deepEqual(stored, ['Rain at noon', 'Sun by three']);

    // A reload opens the same subscription at the same path; the settings list the server.
    await page.reload();
    await page.locator('.state-live').waitFor();
    assert.equal(await page.locator('.card').count(), 2);
    // Marking a message read goes to its server too (ntfy's message_clear), which answers the app's origin.
    await page.getByRole('link', { name: 'All notifications' }).click();
    const later = await publish(`${open.url}/weather`, 'Fog tonight');
    const card = page.locator(`.card[data-id="${later.json.id}"]`);
    // The list of every topic names it with its server.
    assert.match(await card.locator('.card-header .muted').innerText(), new RegExp(` · ${host(open).replaceAll('.', '\\.')}/weather$`));
    const read = page.waitForResponse((res) => res.url().endsWith('/read'));
    await card.getByRole('button', { name: 'Mark read' }).click();
    assert.deepEqual([(await read).url(), (await read).status()], [`${open.url}/weather/${later.json.id}/read`, 200]);
    const events = (await (await fetch(`${open.url}/weather/json?poll=1`)).text()).trim().split('\n').map((line) => JSON.parse(line) as { event: string; sequence_id?: string });
    assert.deepEqual(events.filter((e) => e.event === 'message_clear').map((e) => e.sequence_id), [later.json.id]);

    await page.getByRole('link', { name: 'Settings' }).click();
    assert.deepEqual(await page.locator('.servers-in-use li').allInnerTexts(), [open.url]);
    await context.close();
  });

  it('opening /{host}/{topic} of a server not yet used subscribes there over https, as ntfy does; not for an address too long for one', async () => {
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.goto(`${home.url}/${'a'.repeat(300)}.invalid/alerts`);
    await page.getByRole('link', { name: 'All notifications' }).waitFor();
    assert.equal(await page.evaluate('localStorage.getItem("tocsin.subscriptions")'), null);
    await page.goto(`${home.url}/ntfy.invalid/alerts`);
    await page.locator('.topics a', { hasText: 'alerts' }).waitFor();
    const stored = JSON.parse((await page.evaluate('localStorage.getItem("tocsin.subscriptions")')) as string) as { baseUrl?: string; topic: string }[];
    assert.deepEqual(stored.map((s) => [s.baseUrl, s.topic]), [['https://ntfy.invalid', 'alerts']]);
    await context.close();
  });

  it('refuses a server URL that is not http(s) or carries credentials, and a topic name it cannot use', async () => {
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.goto(home.url);
    const error = page.locator('form.subscribe .error');
    const cases: [string, string, string][] = [
      ['t1', 'ftp://example.com', 'Only http:// and https:// servers can be used'],
      ['t1', 'javascript:alert(1)', 'Only http:// and https:// servers can be used'],
      ['t1', `http://admin:${adminPassword}@${host(vault)}`, 'Leave the user name and password out of the URL: save them under Settings, Other servers'],
      ['t1', 'not a url', 'Not a server URL: write it as https://ntfy.example.com'],
      ['t1', `${open.url}/?x=1`, 'Not a server URL: write it as https://ntfy.example.com'],
      ['bad topic', open.url, 'Letters, digits, - and _ only (at most 64), and not a reserved name'],
    ];
    for (const [topic, url, message] of cases) {
      await subscribeElsewhere(page, topic, url);
      assert.equal(await error.innerText(), message, url);
    }
    assert.equal(await page.locator('.topics li').count(), 0);
    assert.equal(await page.evaluate('localStorage.getItem("tocsin.subscriptions")'), null);
    await context.close();
  });

  it('a protected topic on another server asks for a login to that server, saves it, and sends it to that server only', async () => {
    const context = await freshContext(browser);
    const credentials = recordCredentials(context);
    const page = await context.newPage();
    await page.goto(home.url);
    await subscribeElsewhere(page, 'secrets', vault.url);
    await page.locator('.state-denied').waitFor();
    const server = host(vault);
    assert.equal(await page.locator('.connection-note').innerText(), `secrets on ${server} is protected: Log in to ${server} with an account there that may read it.`);
    const opener = page.getByRole('button', { name: `Log in to ${server}` });
    await opener.click();
    const dialog = page.getByRole('dialog', { name: `Log in to ${server}` });
    assert.equal(await dialog.getAttribute('aria-modal'), 'true');
    // A modal as the publish dialog: focus in its first field, Esc closes it and gives focus back.
    await waitInPage(page, 'document.activeElement?.name === "server-username"'); // moved there by the dialog's effect, after it rendered
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    await waitInPage(page, `document.activeElement?.textContent === ${JSON.stringify(`Log in to ${server}`)}`);
    await opener.click();

    await dialog.getByLabel('User name').fill('admin');
    await dialog.getByLabel('Password or access token').fill('wrong');
    await dialog.getByRole('button', { name: 'Log in' }).click();
    assert.equal(await dialog.getByRole('alert').innerText(), `${server} refused these credentials for secrets.`);
    assert.equal(await page.evaluate('localStorage.getItem("tocsin.users")'), null, 'refused credentials are not kept');

    await dialog.getByLabel('Password or access token').fill(adminPassword);
    await dialog.getByRole('button', { name: 'Log in' }).click();
    await dialog.waitFor({ state: 'detached' });
    await page.locator('.state-live').waitFor();
    const sent = await publish(`${vault.url}/secrets`, 'the combination', { Authorization: basic(adminPassword) });
    await page.locator(`.card[data-id="${sent.json.id}"]`).waitFor();

    // Published from the app: with the saved credentials, to that server.
    await page.getByRole('button', { name: 'Publish' }).click();
    const publishing = page.getByRole('dialog', { name: `Publish to ${server}/secrets` });
    await publishing.locator('textarea[name=message]').fill('changed it');
    await publishing.getByRole('button', { name: 'Send' }).click();
    await page.locator('.message-text', { hasText: 'changed it' }).waitFor();

    // What the browser sent: the vault's credentials to the vault (its /auth check, poll, stream and publish), nothing to the app's server.
    const good = basic(adminPassword);
    const toVault = credentials.filter((c) => c.credential === good).map((c) => c.origin);
    assert.ok(toVault.length >= 4, `${toVault.length} requests with the credentials`);
    assert.deepEqual(new Set(toVault), new Set([vault.url]));
    assert.deepEqual(credentials.filter((c) => c.origin !== vault.url), []);
    await context.close();
  });

  it('credentials saved in the settings (an access token, no user name) open another server\'s topic; removing them closes it; logging out forgets them', async () => {
    const { token } = (await (await fetch(`${vault.url}/v1/account/token`, { method: 'POST', headers: { Authorization: basic(adminPassword) } })).json()) as { token: string };
    const context = await freshContext(browser);
    const page = await logInAs(context, home.url, 'admin', adminPassword);
    await page.goto(`${home.url}/settings`);
    const form = page.getByRole('form', { name: 'Save credentials' });
    await form.getByLabel('Server URL').fill(home.url);
    await form.getByLabel('Password or access token').fill(token);
    await form.getByRole('button', { name: 'Save credentials' }).click();
    assert.equal(await form.locator('.error').innerText(), "That is this app's own server: log in to it instead");
    // Kept in one form (no trailing slash): credentials are found by it exactly.
    await form.getByLabel('Server URL').fill(`${vault.url}/`);
    await form.getByRole('button', { name: 'Save credentials' }).click();
    assert.deepEqual(await page.locator('.server-users tbody td').allInnerTexts(), [vault.url, 'access token', 'Remove']);

    await subscribeElsewhere(page, 'tokened', vault.url);
    await page.locator('.state-live').waitFor();
    const sent = await publish(`${vault.url}/tokened`, 'by token', { Authorization: `Bearer ${token}` });
    await page.locator(`.card[data-id="${sent.json.id}"]`).waitFor();
    // The account keeps the subscription with its server (ntfy's base_url), and another browser logging in adopts it.
    const account = (await (await fetch(`${home.url}/v1/account`, { headers: { Authorization: basic(adminPassword) } })).json()) as { subscriptions: { base_url: string; topic: string }[] };
    assert.deepEqual(account.subscriptions.map((sub) => [sub.base_url, sub.topic]), [[vault.url, 'tokened']]);
    const elsewhere = await freshContext(browser);
    const adopted = await logInAs(elsewhere, home.url, 'admin', adminPassword);
    assert.deepEqual(await adopted.locator('.topics a').allInnerTexts(), [`tokened\n${host(vault)}\n0`]);
    await elsewhere.close();

    await page.getByRole('link', { name: 'Settings' }).click();
    await page.getByRole('button', { name: `Remove the credentials for ${host(vault)}` }).click();
    await page.locator('.topics a', { hasText: 'tokened' }).click();
    await page.locator('.state-denied').waitFor();

    await page.getByRole('link', { name: 'Settings' }).click();
    await form.getByLabel('Server URL').fill(vault.url);
    await form.getByLabel('Password or access token').fill(token);
    await form.getByRole('button', { name: 'Save credentials' }).click();
    assert.equal(JSON.parse((await page.evaluate('localStorage.getItem("tocsin.users")')) as string).length, 1);
    await page.getByRole('link', { name: 'admin', exact: true }).click();
    await page.getByRole('button', { name: 'Log out' }).click();
    await waitInPage(page, 'localStorage.getItem("tocsin.session") === "null"');
    assert.equal(await page.evaluate('localStorage.getItem("tocsin.users")'), '[]');
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`axe-core finds no violations in the login dialog, the sidebar and the settings of other servers in the ${colorScheme} theme`, async () => {
      const context = await freshContext(browser, { colorScheme });
      const page = await context.newPage();
      await page.goto(home.url);
      await subscribeElsewhere(page, 'axe_other', vault.url);
      await page.locator('.state-denied').waitFor();
      const found: Record<string, string[]> = { 'denied note': await violations(page) };
      await page.getByRole('button', { name: `Log in to ${host(vault)}` }).click();
      await page.getByRole('dialog').getByLabel('Password or access token').fill('wrong');
      await page.getByRole('dialog').getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('alert').waitFor();
      found['login dialog'] = await violations(page);
      await page.keyboard.press('Escape');
      await page.getByRole('link', { name: 'Settings' }).click();
      const form = page.getByRole('form', { name: 'Save credentials' });
      await form.getByLabel('Server URL').fill(vault.url);
      await form.getByLabel('User name').fill('admin');
      await form.getByLabel('Password or access token').fill(adminPassword);
      await form.getByRole('button', { name: 'Save credentials' }).click();
      await page.locator('.server-users').waitFor();
      found.settings = await violations(page);
      assert.deepEqual(found, { 'denied note': [], 'login dialog': [], settings: [] });
      await context.close();
    });
  }
});
