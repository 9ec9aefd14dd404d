import type { BillingTestApp } from './billing-fixtures.js';

/**
 * Completes a sandbox card checkout the way a browser does: loads the page (getting the CSRF cookie and
 * form token), then submits the form with the chosen button. Returns the submission's answer.
 */
export async function submitSandboxCheckout(t: BillingTestApp, checkoutUrl: string, action: 'pay' | 'decline') {
  const path = new URL(checkoutUrl).pathname;
  const page = await t.app.inject({ method: 'GET', url: path });
  if (page.statusCode !== 200) throw new Error(`The checkout page answered ${page.statusCode}`);
  const token = /name="csrf" value="([^"]+)"/.exec(page.body)?.[1];
  const cookie = String(page.headers['set-cookie'] ?? '').split(';')[0];
  if (token === undefined || cookie === '') throw new Error('The checkout page has no CSRF token');
  return t.app.inject({
    method: 'POST',
    url: path,
    headers: { 'content-type': 'application/x-www-form-urlencoded', cookie },
    payload: new URLSearchParams({ csrf: token, action }).toString(),
  });
}
