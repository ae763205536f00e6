import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { Browser, Page } from 'playwright-core';
import { violations } from '../support/axe.js';
import { freshContext, launchBrowser, noChromium, openTopic } from '../support/browser.js';
import { publish } from '../support/clients.js';
import { tempDir, type TestServer } from '../support/server.js';
import { adminPassword, startWebServer } from '../support/web-server.js';

/**
 * The web app in other languages (issue 40, item 5) in Chromium against a real Tocsin: the
 * browser's language by default, the settings' picker switching without a reload and kept
 * across one, Arabic laid out right to left, and axe-core clean in Arabic and German.
 */

let s: TestServer;
let browser: Browser;
const dir = tempDir();
before(async () => {
  if (noChromium) return;
  [s, browser] = await Promise.all([startWebServer(dir), launchBrowser()]);
});
after(() => Promise.all([s?.server.close(), browser?.close()]));

/** `<html lang dir>` as the page set them. */
const htmlLangDir = (page: Page): Promise<[string, string]> => page.evaluate('[document.documentElement.lang, document.documentElement.dir]');

/** Logs in on the login page, whose words are in the language shown (the button's name given). */
async function logIn(page: Page, button: string): Promise<void> {
  await page.goto(`${s.url}/login`);
  await page.locator('input[name=username]').fill('admin');
  await page.locator('input[name=password]').fill(adminPassword);
  await page.getByRole('button', { name: button }).click();
  await page.getByRole('heading', { name: /^admin \(/ }).waitFor();
}

describe('web app languages in Chromium (issue 40)', { skip: noChromium }, () => {
  it('follows a German browser: German words, German dates and numbers, <html lang>', async () => {
    const context = await freshContext(browser, { locale: 'de-DE', timezoneId: 'UTC' });
    const sent = await publish(`${s.url}/de_topic`, 'Festplatte voll', { Priority: '4', Title: 'srv1' });
    const page = await openTopic(context, s.url, 'de_topic');
    assert.deepEqual(await htmlLangDir(page), ['de-DE', 'ltr']);
    await page.getByRole('button', { name: 'Veröffentlichen' }).waitFor();
    await page.getByRole('link', { name: 'Alle Benachrichtigungen' }).waitFor();
    assert.equal(await page.locator('.state').textContent(), 'verbunden');
    const card = page.locator(`.card[data-id="${String(sent.json.id)}"]`);
    assert.equal(await card.locator('.priority').textContent(), 'hoch');
    const time = new Intl.DateTimeFormat('de-DE', { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' }).format(Number(sent.json.time) * 1000);
    assert.match(time, /^\d{2}\.\d{2}\.\d{4}, \d{2}:\d{2}$/);
    assert.equal(await card.locator('.card-header .muted').textContent(), time);
    assert.deepEqual(await card.getByRole('button').allTextContents(), ['Kopieren', 'Löschen']);
    // Plurals through Intl.PluralRules, in the settings and on the account page.
    await page.goto(`${s.url}/settings`);
    assert.equal(await page.locator('select[name=delete-after] option').nth(1).textContent(), 'nach 3 Stunden');
    await logIn(page, 'Anmelden');
    assert.deepEqual(await page.locator('select[name=lifetime] option').allTextContents(), ['läuft nie ab', '1 Tag', '30 Tage', '1 Jahr']);
    await context.close();
  });

  it('switches to French from the settings without a reload, and keeps French across one', async () => {
    const context = await freshContext(browser);
    const page = await context.newPage();
    await page.goto(`${s.url}/settings`);
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    assert.deepEqual(await htmlLangDir(page), ['en-US', 'ltr']);
    await page.evaluate('window.notReloaded = true');
    await page.locator('select[name=language]').selectOption('fr');
    await page.getByRole('heading', { name: 'Paramètres' }).waitFor();
    assert.equal(await page.evaluate('window.notReloaded'), true);
    assert.deepEqual(await htmlLangDir(page), ['fr', 'ltr']);
    assert.equal(await page.getByRole('link', { name: 'Toutes les notifications' }).count(), 1);
    assert.equal(await page.getByRole('button', { name: 'Publier' }).count(), 1);
    assert.equal(JSON.parse((await page.evaluate("localStorage.getItem('tocsin.settings')")) as string).language, 'fr');
    await page.reload();
    await page.getByRole('heading', { name: 'Paramètres' }).waitFor();
    assert.equal(await page.locator('select[name=language]').inputValue(), 'fr');
    // Back to the browser's language: English again.
    await page.locator('select[name=language]').selectOption('');
    await page.getByRole('heading', { name: 'Settings' }).waitFor();
    assert.deepEqual(await htmlLangDir(page), ['en-US', 'ltr']);
    await context.close();
  });

  it('lays Arabic out right to left: the sidebar on the right, cards and dialogs mirrored', async () => {
    const context = await freshContext(browser, { locale: 'ar', viewport: { width: 1200, height: 800 } });
    await publish(`${s.url}/ar_topic`, 'القرص ممتلئ', { Priority: '5', Title: 'srv1' });
    const page = await openTopic(context, s.url, 'ar_topic');
    assert.deepEqual(await htmlLangDir(page), ['ar', 'rtl']);
    await page.getByRole('link', { name: 'كل الإشعارات' }).waitFor();
    const sidebar = await page.locator('nav.sidebar').boundingBox();
    const main = await page.locator('main').boundingBox();
    assert.ok(sidebar && main);
    assert.equal(sidebar.x + sidebar.width, 1200, 'the sidebar ends at the right edge');
    assert.ok(main.x + main.width <= sidebar.x, `main (${main.x}+${main.width}) is left of the sidebar (${sidebar.x})`);
    // The card's priority stripe is on its right, its inline start.
    const card = page.locator('.card').first();
    assert.deepEqual(await page.evaluate("(({ borderRightWidth, borderLeftWidth }) => [borderRightWidth, borderLeftWidth])(getComputedStyle(document.querySelector('.card')))"), ['4px', '1px']);
    assert.equal(await card.locator('.priority').textContent(), 'عاجلة');
    // The dialog's buttons sit at its inline end: the left.
    await page.getByRole('button', { name: 'نشر' }).click();
    const shown = page.getByRole('dialog', { name: 'النشر في ar_topic' });
    const dialog = await shown.boundingBox();
    const send = await shown.getByRole('button', { name: 'إرسال', exact: true }).boundingBox();
    const cancel = await shown.getByRole('button', { name: 'إلغاء', exact: true }).boundingBox();
    assert.ok(dialog && send && cancel);
    assert.ok(send.x < cancel.x, 'Send is left of Cancel');
    assert.ok(send.x - dialog.x < 40, `Send (${send.x}) at the dialog's left (${dialog.x})`);
    await page.keyboard.press('Escape');
    // Arabic's plural forms: 3 takes "few".
    await page.getByRole('link', { name: 'الإعدادات' }).click();
    assert.equal(await page.locator('select[name=delete-after] option').nth(1).textContent(), 'بعد 3 ساعات');
    await context.close();
  });

  for (const colorScheme of ['light', 'dark'] as const) {
    it(`axe-core finds no violations in Arabic and German in the ${colorScheme} theme`, async () => {
      await publish(`${s.url}/axe_i18n`, 'Check the **disk**', { Priority: '4', Title: 'High', Markdown: 'yes', Tags: 'warning' });
      await publish(`${s.url}/axe_i18n`, 'Now', { Priority: '5', Title: 'Urgent', Actions: 'view, Open, https://example.com; http, Retry, https://example.com' });
      const found: Record<string, string[]> = {};
      for (const [locale, logInButton] of [
        ['ar', 'تسجيل الدخول'],
        ['de-DE', 'Anmelden'],
      ] as const) {
        const context = await freshContext(browser, { locale, colorScheme });
        const page = await openTopic(context, s.url, 'axe_i18n');
        await page.locator('.card').nth(1).waitFor();
        found[`${locale} topic`] = await violations(page);
        await page.locator('.topbar button.primary').click();
        await page.locator('.dialog').waitFor();
        found[`${locale} publish dialog`] = await violations(page);
        await page.keyboard.press('Escape');
        for (const path of ['settings', 'signup']) {
          await page.goto(`${s.url}/${path}`);
          await page.locator('main h2').first().waitFor();
          found[`${locale} /${path}`] = await violations(page);
        }
        await logIn(page, logInButton);
        found[`${locale} /account`] = await violations(page);
        await context.close();
      }
      assert.deepEqual(found, Object.fromEntries(Object.keys(found).map((k) => [k, []])));
    });
  }
});
