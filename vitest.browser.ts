// How the browser tests drive headless Chromium (Debian's package, see '#test-prerequisites'), and what every page
// people see must have at a phone's width. Imported by tests as '#test-browser'.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { type BrowserContext, chromium, type Page } from 'playwright-core';
import { expect } from 'vitest';
import { chromiumPath } from './vitest.prerequisites.js';
import { EVENTUALLY_TIMEOUT_MS } from './vitest.timing.js';

/** How long a Playwright wait may take before it fails: twice `eventually`'s, as only a hung page waits this long. */
export const BROWSER_WAIT_TIMEOUT_MS = 2 * EVENTUALLY_TIMEOUT_MS;

/** A small phone. */
export const PHONE = { width: 360, height: 740 };

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/**
 * A headless Chromium with a profile of its own and no script (our pages are plain forms). `hostRules` maps
 * host names to local servers, e.g. `MAP verify.test 127.0.0.1:4312`. `popupBlocking: false` lets a page open a
 * popup however long after the click it does (a page that first waits for its server would otherwise depend on
 * answering within the browser's user-activation window).
 */
export async function launchBrowser({
  hostRules = [] as string[],
  javaScript = false,
  popupBlocking = true,
} = {}): Promise<Browser> {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'chromium-test-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: chromiumPath(),
    headless: true,
    // Starting Chromium beside every other suite on a loaded machine can take longer than Playwright's 30 s.
    timeout: BROWSER_WAIT_TIMEOUT_MS,
    javaScriptEnabled: javaScript,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-features=HttpsUpgrades',
      ...(popupBlocking ? [] : ['--disable-popup-blocking']),
      ...(hostRules.length === 0 ? [] : [`--host-resolver-rules=${hostRules.join(',')}`]),
    ],
  });
  // Playwright's waits (navigation, waitForFunction, clicks) only stop a page that hangs: its own 30 s default is
  // what a loaded CI machine, running several browsers beside every suite, can come close to (docs/testing.md#rules).
  context.setDefaultTimeout(BROWSER_WAIT_TIMEOUT_MS);
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

/** Content Security Policy violations the page reports, collected from its console. */
export function policyViolationsOf(page: Page): string[] {
  const violations: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(message.text());
  });
  return violations;
}

/**
 * What a page must have at a phone's width, checked in the browser: nothing wider than the screen, every text at
 * WCAG AA contrast on the background it is drawn on (4.5:1, 3:1 for large text), every button at least 24 px high
 * (WCAG 2.2 target size) with a name, every text input and text area with a label.
 */
export async function expectPhoneFriendly(page: Page): Promise<void> {
  const problems = await page.evaluate(() => {
    const found: string[] = [];
    const root = document.documentElement;
    if (root.scrollWidth > root.clientWidth) found.push(`page is ${root.scrollWidth}px wide`);
    const rgb = (value: string) => (value.match(/[\d.]+/g) ?? []).map(Number);
    const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
      const linear = (channel: number) => {
        const c = channel / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * linear(r) + 0.7152 * linear(g) + 0.0722 * linear(b);
    };
    const backgroundOf = (element: Element | null): number[] => {
      for (let at = element; at !== null; at = at.parentElement) {
        const color = rgb(getComputedStyle(at).backgroundColor);
        if (color.length === 3 || (color.length === 4 && color[3] !== 0)) return color.slice(0, 3);
      }
      return [255, 255, 255];
    };
    for (const element of Array.from(document.body.querySelectorAll('*'))) {
      const ownText = Array.from(element.childNodes).some((node) => node.nodeType === 3 && node.textContent?.trim());
      if (!ownText) continue;
      const style = getComputedStyle(element);
      const [l1, l2] = [luminance(rgb(style.color)), luminance(backgroundOf(element))].sort((a, b) => b - a);
      const ratio = ((l1 ?? 0) + 0.05) / ((l2 ?? 0) + 0.05);
      const size = Number.parseFloat(style.fontSize);
      const large = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700);
      if (ratio < (large ? 3 : 4.5))
        found.push(`${element.tagName} "${element.textContent?.trim()}" ${ratio.toFixed(2)}:1`);
    }
    for (const button of Array.from(document.querySelectorAll('button'))) {
      if (button.getBoundingClientRect().height < 24) found.push(`button "${button.textContent}" under 24px`);
      if (!button.textContent?.trim()) found.push('a button without a name');
    }
    for (const input of Array.from(document.querySelectorAll('input[type=text], textarea'))) {
      if (!document.querySelector(`label[for="${input.id}"]`)) found.push(`input ${input.id} without a label`);
    }
    return found;
  });
  expect(problems).toEqual([]);
}
