import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';

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
