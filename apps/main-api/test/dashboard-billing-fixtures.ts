import { expect } from 'vitest';
import { cookieOf, type DashboardHarness } from './dashboard-harness.js';

// What the Billing pages' tests share: the hidden key of a page's form, and a payment started from a page and paid
// at the sandbox checkout as a browser pays it.

/** The key of the first form of the page that carries one. */
export const formKeyIn = (html: string): string => /name="key" value="([^"]+)"/.exec(html)?.[1] ?? '';

/** The reference in a checkout URL (`.../PAY-...`). */
export const referenceIn = (url: string): string => /PAY-[0-9a-f-]+/.exec(url)?.[0] ?? '';

/** Pays (or declines) at the sandbox's checkout page: its page, then its form with its own token and cookie. */
export async function completeSandboxCheckout(
  h: DashboardHarness,
  checkoutUrl: string,
  action: 'pay' | 'decline' = 'pay',
) {
  const path = new URL(checkoutUrl).pathname;
  const page = await h.t.app.inject({ method: 'GET', url: path });
  expect(page.statusCode).toBe(200);
  const token = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1] ?? '';
  const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0] ?? '';
  const done = await h.t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    payload: new URLSearchParams({ csrf: token, action }).toString(),
  });
  expect(done.statusCode).toBe(303);
  return done;
}

/** Tops up the live wallet of `organizationId` from the Wallet page; the form's answer. */
export async function topUpLive(
  h: DashboardHarness,
  cookie: string,
  organizationId: string,
  fields: { amount: string; method: string; phone?: string },
) {
  const from = `/dashboard/billing/wallet?env=live&org=${organizationId}`;
  const page = await h.get(from, cookie);
  return h.post(
    '/dashboard/billing/wallet/top-up',
    cookieOf(page, cookie),
    { key: formKeyIn(page.body), ...fields },
    from,
  );
}
