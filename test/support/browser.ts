import { existsSync } from 'node:fs';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's Chromium (`apt-get install chromium`, as .ci/run does), or the one CHROMIUM_PATH names. */
export const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/**
 * Why the browser tests skip, or undefined when they run: pass it as `describe`'s `skip`,
 * so `npm test` says in its output that no Chromium was found rather than failing.
 */
export const noChromium: string | undefined = existsSync(chromiumPath)
  ? undefined
  : `no Chromium at ${chromiumPath}: the web app's browser tests skip (apt-get install chromium, or set CHROMIUM_PATH)`;

/** A headless Chromium: one per test file, launched in a top-level `before`, closed in its `after`. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: chromiumPath, args: ['--no-sandbox'] });
}

/**
 * Waits until `expression`, run in the page, is true. Playwright's waitForFunction evaluates
 * its predicate with eval inside the page, which the pages' Content-Security-Policy refuses;
 * page.evaluate goes through the DevTools protocol, which the policy does not govern, so the
 * check loop is handed over whole and re-checks on a short timer in the page.
 */
export async function waitInPage(page: Page, expression: string, timeoutMs = 10_000): Promise<void> {
  await page.evaluate(`new Promise((resolve, reject) => {
    const end = Date.now() + ${timeoutMs};
    const check = () => {
      if (${expression}) return resolve(true);
      if (Date.now() > end) return reject(new Error('timed out after ${timeoutMs} ms waiting for ' + ${JSON.stringify(JSON.stringify(expression))}));
      setTimeout(check, 25);
    };
    check();
  })`);
}

/** Opens the app's login page at `baseUrl` in a new page of `context` and logs in there, as a user would. */
export async function logInAs(context: BrowserContext, baseUrl: string, username: string, password: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/login`);
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  await page.getByRole('button', { name: 'Log in' }).click();
  await page.getByRole('heading', { name: new RegExp(`^${username} \\(`) }).waitFor();
  return page;
}

/**
 * A fresh browser profile (its own localStorage) that fails the test on any page error. In
 * American English unless `options` say otherwise: the app follows the browser's language,
 * and the tests read its English. (Pages of browser.newPage() are en-US too: Playwright's
 * headless Chromium reports en-US whatever the machine's LANG or --lang.)
 */
export async function freshContext(browser: Browser, options: Parameters<Browser['newContext']>[0] = {}): Promise<BrowserContext> {
  const context = await browser.newContext({ locale: 'en-US', ...options });
  context.on('weberror', (err) => {
    throw new Error(`page error: ${err.error().message}`);
  });
  return context;
}

/** A new page of `context` on the app's page of `topic` at `baseUrl`, once its connection is live. */
export async function openTopic(context: BrowserContext, baseUrl: string, topic: string): Promise<Page> {
  const page = await context.newPage();
  await page.goto(`${baseUrl}/${topic}`);
  await page.locator('.state-live').waitFor();
  return page;
}

/** A notification the app's service worker registration shows, as the system would list it. */
export interface ShownNotification {
  title: string;
  body: string;
  icon: string;
  tag: string;
  actions: { action: string; title: string }[];
  data: unknown;
}

/**
 * The notifications the registration at `page`'s origin shows, once there are exactly
 * `count` of them (headless Chromium keeps them, though it displays none). Run in the page, or in the
 * worker itself (Playwright's Worker) when no page of the app is open.
 */
export async function shownNotifications(where: Pick<Page, 'evaluate'>, count: number, timeoutMs = 10_000): Promise<ShownNotification[]> {
  const registration = `(typeof ServiceWorkerGlobalScope === 'function' ? Promise.resolve(self.registration) : navigator.serviceWorker.ready)`;
  return (await where.evaluate(`(async () => {
    const end = Date.now() + ${timeoutMs};
    for (;;) {
      const shown = await (await ${registration}).getNotifications();
      if (shown.length === ${count}) return shown.map((n) => ({ title: n.title, body: n.body, icon: n.icon, tag: n.tag, actions: n.actions.map((a) => ({ action: a.action, title: a.title })), data: n.data }));
      if (Date.now() > end) throw new Error('timed out after ${timeoutMs} ms waiting for ${count} notifications, ' + shown.length + ' shown');
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  })()`)) as ShownNotification[];
}
