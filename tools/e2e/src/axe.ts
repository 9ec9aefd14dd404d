import axe from 'axe-core';
import type { BrowserContext, Page } from 'playwright-core';
import { expect } from 'vitest';

// The accessibility check every page of a journey gets: axe-core, evaluated through the browser's debugging protocol
// (page.evaluate of axe.source, which the page's CSP does not govern). axe runs on the page's event loop, which a page
// browsed without script does not turn: the journey's page is copied, at its size, into a page of `checker`, a
// context with script on, and checked there. Serious and critical violations fail the test, each named with the
// elements it was found on.

export async function expectNoSeriousAxeViolations(page: Page, checker: BrowserContext): Promise<void> {
  const copy = await checker.newPage();
  try {
    const size = page.viewportSize();
    if (size !== null) await copy.setViewportSize(size);
    await copy.setContent(await page.content(), { waitUntil: 'load' });
    await copy.evaluate(axe.source);
    const violations = await copy.evaluate(async () => {
      const found = await (window as unknown as { axe: typeof axe }).axe.run(document, { resultTypes: ['violations'] });
      return found.violations
        .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
        .map((violation) => `${violation.id}: ${violation.nodes.map((node) => node.target.join(' ')).join(', ')}`);
    });
    expect(violations, `axe on ${page.url()}`).toEqual([]);
  } finally {
    await copy.close();
  }
}
