import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { apiCall, basic } from '../support/account-api.js';
import { freshContext, launchBrowser, logInAs, noChromium } from '../support/browser.js';
import type { Json } from '../support/clients.js';
import { tempDir, type TestServer } from '../support/server.js';
import { adminPassword, startWebServer } from '../support/web-server.js';

/**
 * The admin pages (issue 38 item 5) in Chromium against a real Tocsin: an admin does each
 * section's work in the page, and the server is then asked (as admin, over HTTP) what it
 * holds; a regular user neither sees the link nor gets the pages.
 */

let s: TestServer;
let browser: Browser;
const dir = tempDir();
before(async () => {
  if (noChromium) return;
  [s, browser] = await Promise.all([startWebServer(dir), launchBrowser()]);
  for (const username of ['ben', 'mia']) assert.equal((await apiCall(s.url, 'POST', '/v1/account', undefined, { username, password: 'secret' }))[0], 200);
  assert.equal((await admin('POST', '/v1/tiers', { code: 'basic', name: 'Basic' }))[0], 200);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

const admin = (method: string, path: string, body?: unknown): Promise<[number, Json]> => apiCall(s.url, method, path, basic('admin', adminPassword), body);
const listed = async <T>(path: string): Promise<T> => (await admin('GET', path))[1] as unknown as T;
const user = async (name: string): Promise<Json | undefined> => (await listed<Json[]>('/v1/users')).find((u) => u.username === name);

/** The admin logged in, on the admin pages opened from the sidebar's link; every confirmation accepted. */
async function openAdmin(context: BrowserContext): Promise<Page> {
  const page = await logInAs(context, s.url, 'admin', adminPassword);
  page.on('dialog', (dialog) => void dialog.accept());
  await page.getByRole('link', { name: 'Admin', exact: true }).click();
  await page.getByRole('heading', { name: 'Administration' }).waitFor();
  assert.equal(new URL(page.url()).pathname, '/account/admin');
  return page;
}

describe('admin pages in Chromium', { skip: noChromium }, () => {
  it('users: adds one, makes them admin and back, sets and clears a tier, sets a password, removes them', async () => {
    const context = await freshContext(browser);
    const page = await openAdmin(context);
    const users = page.getByRole('region', { name: 'Users' });
    const add = users.getByRole('form', { name: 'Add a user' });
    await add.getByLabel('Username').fill('carla');
    await add.getByLabel('Password').fill('first-pass');
    await add.getByRole('button', { name: 'Add user' }).click();
    await users.getByText('User carla added').waitFor();
    assert.deepEqual(await user('carla'), { username: 'carla', role: 'user' });

    await users.getByLabel('Role of carla').selectOption('admin');
    await users.getByText('carla is now admin').waitFor();
    assert.equal((await user('carla'))?.role, 'admin');
    await users.getByLabel('Role of carla').selectOption('user');
    await users.getByText('carla is now user').waitFor();
    assert.equal((await user('carla'))?.role, 'user');

    await users.getByLabel('Tier of carla').selectOption('basic');
    await users.getByText('carla is now on the tier Basic').waitFor();
    assert.equal((await user('carla'))?.tier, 'basic');
    await users.getByLabel('Tier of carla').selectOption('');
    await users.getByText('carla is on no tier now').waitFor();
    assert.equal((await user('carla'))?.tier, undefined);

    const reset = users.getByRole('form', { name: "Set a user's password" });
    await reset.getByLabel('User').selectOption('carla');
    await reset.getByLabel('New password').fill('second-pass');
    await reset.getByRole('button', { name: 'Set password' }).click();
    await users.getByText('New password set for carla').waitFor();
    assert.equal((await apiCall(s.url, 'GET', '/v1/account', basic('carla', 'second-pass')))[0], 200);

    await users.getByRole('button', { name: 'Remove user carla' }).click();
    await users.getByText('User carla removed').waitFor();
    assert.equal(await user('carla'), undefined);
    await context.close();
  });

  it('groups and grants: adds a group and a member, grants the group a pattern and lists it, removes the grant', async () => {
    const context = await freshContext(browser);
    const page = await openAdmin(context);
    const groups = page.getByRole('region', { name: 'Groups' });
    await groups.getByLabel('Group name').fill('ops');
    await groups.getByRole('button', { name: 'Add group' }).click();
    await groups.getByText('Group ops added').waitFor();
    const member = groups.getByRole('form', { name: 'Add a member to a group' });
    await member.getByLabel('Group').selectOption('ops');
    await member.getByLabel('Member').selectOption('ben');
    await member.getByRole('button', { name: 'Add member' }).click();
    await groups.getByText('ben added to ops').waitFor();
    assert.deepEqual(await listed('/v1/groups'), { groups: [{ name: 'ops', members: ['ben'] }] });

    const grants = page.getByRole('region', { name: 'Access grants' });
    const grant = grants.getByRole('form', { name: 'Grant a topic' });
    await grant.getByLabel('Who').selectOption({ label: 'group ops' });
    await grant.getByLabel('Topic or pattern').fill('deploys*');
    await grant.getByLabel('Permission').selectOption('read-only');
    await grant.getByRole('button', { name: 'Grant' }).click();
    await grants.getByText('group ops granted deploys*').waitFor();
    assert.deepEqual(await grants.getByRole('row').filter({ hasText: 'deploys*' }).locator('td').allInnerTexts(), ['group ops', 'deploys*', 'read only', 'Remove']);
    assert.deepEqual(await listed('/v1/groups'), { groups: [{ name: 'ops', members: ['ben'], grants: [{ topic: 'deploys*', permission: 'read-only' }] }] });
    assert.equal((await fetch(`${s.url}/deploys-1/json?poll=1`, { headers: { Authorization: basic('ben') } })).status, 200, 'a member reads');

    await grants.getByRole('button', { name: 'Remove the grant of deploys* to group ops' }).click();
    await grants.getByText('Grant removed').waitFor();
    assert.deepEqual(await listed('/v1/groups'), { groups: [{ name: 'ops', members: ['ben'] }] });
    await groups.getByRole('button', { name: 'Remove ben from ops' }).click();
    await groups.getByText('ben removed from ops').waitFor();
    await groups.getByRole('button', { name: 'Remove group ops' }).click();
    await groups.getByText('Group ops removed').waitFor();
    assert.deepEqual(await listed('/v1/groups'), { groups: [] });
    await context.close();
  });

  it("tokens: lists a chosen user's tokens with label and scopes, and revokes one", async () => {
    const [, made] = await apiCall(s.url, 'POST', '/v1/account/token', basic('mia'), { label: 'ci-deploy', scopes: [{ topic: 'deploys', permission: 'wo' }] });
    const context = await freshContext(browser);
    const page = await openAdmin(context);
    const tokens = page.getByRole('region', { name: 'Tokens of a user' });
    await tokens.getByLabel('User').selectOption('mia');
    const row = tokens.getByRole('row').filter({ hasText: 'ci-deploy' });
    assert.match(await row.innerText(), /deploys \(write-only\)\tuntil .+\tlast used .+\tRevoke$/);
    await tokens.getByRole('button', { name: 'Revoke token ci-deploy' }).click();
    await tokens.getByText('Token revoked').waitFor();
    await tokens.getByText('mia has no tokens.').waitFor();
    assert.deepEqual(await listed('/v1/users/tokens?username=mia'), { tokens: [] });
    assert.equal((await apiCall(s.url, 'GET', '/v1/account', `Bearer ${made.token as string}`))[0], 401);
    await context.close();
  });

  it('tiers: adds one with limits in words, changes it through Edit, removes it', async () => {
    const context = await freshContext(browser);
    const page = await openAdmin(context);
    const tiers = page.getByRole('region', { name: 'Tiers' });
    const form = tiers.getByRole('form', { name: 'Add or change a tier' });
    await form.getByLabel('Code').fill('pro');
    await form.getByLabel('Name').fill('Pro');
    await form.getByLabel('Messages per day').fill('100');
    await form.getByLabel('Messages kept for').fill('1d');
    await form.getByRole('button', { name: 'Add tier' }).click();
    await tiers.getByText('Tier pro added').waitFor();
    const pro = async (): Promise<Json | undefined> => (await listed<Json[]>('/v1/tiers')).find((t) => t.code === 'pro');
    assert.deepEqual(await pro(), {
      code: 'pro',
      name: 'Pro',
      limits: { messages: 100, messages_expiry_duration: 86400, emails: 20, calls: 0, reservations: 3, attachment_file_size: 15728640, attachment_total_size: 104857600, attachment_expiry_duration: 21600, attachment_bandwidth: 1073741824 },
    });
    await tiers.getByRole('button', { name: 'Edit tier Pro' }).click();
    assert.equal(await form.getByLabel('Messages kept for').inputValue(), '86400');
    await form.getByLabel('E-mails per day').fill('7');
    await form.getByLabel('Name').fill('Pro plus');
    await form.getByRole('button', { name: 'Save changes' }).click();
    await tiers.getByText('Tier pro changed').waitFor();
    assert.deepEqual([(await pro())?.name, ((await pro())?.limits as Json).emails, ((await pro())?.limits as Json).messages], ['Pro plus', 7, 100]);
    await tiers.getByRole('button', { name: 'Remove tier Pro plus' }).click();
    await tiers.getByText('Tier Pro plus removed').waitFor();
    assert.equal(await pro(), undefined);
    await context.close();
  });

  it('shows the server\'s error: a tier code it refuses', async () => {
    const context = await freshContext(browser);
    const page = await openAdmin(context);
    const tiers = page.getByRole('region', { name: 'Tiers' });
    await tiers.getByLabel('Code').fill('bad code');
    await tiers.getByRole('button', { name: 'Add tier' }).click();
    await tiers.getByText('invalid request; tier code must be 1-64 letters, digits, - or _').waitFor();
    await context.close();
  });

  it('a regular user sees no Admin link and is told the pages are for admins; the API refuses them', async () => {
    const context = await freshContext(browser);
    const page = await logInAs(context, s.url, 'ben', 'secret');
    await page.getByRole('link', { name: 'Settings' }).waitFor();
    assert.equal(await page.getByRole('link', { name: 'Admin', exact: true }).count(), 0);
    await page.goto(`${s.url}/account/admin`);
    await page.getByText("These pages are for the server's admins only.").waitFor();
    assert.equal(await page.getByRole('heading', { name: 'Administration' }).count(), 0);
    assert.equal((await apiCall(s.url, 'GET', '/v1/users', basic('ben')))[0], 401);
    await context.close();
  });
});
