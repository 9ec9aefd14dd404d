import type { TestApp } from './helpers.js';

// Signing in to the review console as a browser does, with an access token: the cookie it ends with and the form
// token of the queue page it lands on.

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };

/** The console cookie a response sets (`review_session=...`), or `previous` when it sets none. */
function consoleCookieOf(response: { headers: Record<string, unknown> }, previous = ''): string {
  const set = [response.headers['set-cookie'] ?? []].flat() as string[];
  const line = set.find((each) => /^(__Host-)?review_session=/.test(each));
  return line === undefined ? previous : (line.split(';')[0] ?? previous);
}

function formTokenOf(html: string): string {
  const match = /name="_csrf" value="([^"]+)"/.exec(html);
  if (match?.[1] === undefined) throw new Error('the page has no form token');
  return match[1];
}

/** Signs in with `token`; the answer of the sign-in form, and the cookie and form token once on the queue. */
export async function signInToConsole(t: Pick<TestApp, 'app'>, token: string) {
  const start = await t.app.inject({ method: 'GET', url: '/review' });
  const signIn = await t.app.inject({
    method: 'POST',
    url: '/review/sign-in',
    headers: { ...FORM, cookie: consoleCookieOf(start) },
    payload: new URLSearchParams({ token, _csrf: formTokenOf(start.body) }).toString(),
  });
  if (signIn.statusCode !== 303) throw new Error(`sign-in answered ${signIn.statusCode}`);
  const signedIn = consoleCookieOf(signIn);
  const queue = await t.app.inject({ method: 'GET', url: '/review', headers: { cookie: signedIn } });
  return { cookie: consoleCookieOf(queue, signedIn), csrf: formTokenOf(queue.body) };
}

/** Signs out with the form of the queue page. */
export function signOutOfConsole(t: Pick<TestApp, 'app'>, session: { cookie: string; csrf: string }) {
  return t.app.inject({
    method: 'POST',
    url: '/review/sign-out',
    headers: { ...FORM, cookie: session.cookie },
    payload: new URLSearchParams({ _csrf: session.csrf }).toString(),
  });
}

/** The status of the queue page with this cookie: 200 signed in, 401 the sign-in page, 403 no reviewer role. */
export async function queueStatus(t: Pick<TestApp, 'app'>, cookie: string): Promise<number> {
  return (await t.app.inject({ method: 'GET', url: '/review', headers: { cookie } })).statusCode;
}
