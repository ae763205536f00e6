import axe from 'axe-core';
import type { Page } from 'playwright-core';

/**
 * axe-core's violations on the page as it is, by rule, with the elements. The script goes in
 * through the DevTools protocol (page.evaluate), which the page's Content-Security-Policy does
 * not govern, so the policy stays on while axe checks.
 */
export async function violations(page: Page): Promise<string[]> {
  await page.evaluate(axe.source);
  const found = (await page.evaluate('axe.run(document).then((r) => r.violations.map((v) => v.id + ": " + v.nodes.map((n) => n.target.join(" ")).join(", ")))')) as string[];
  return found;
}
