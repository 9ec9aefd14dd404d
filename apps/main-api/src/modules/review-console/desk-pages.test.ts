import { describe, expect, it } from 'vitest';
import { DECIDED_SESSION_ID, SESSION_ID, useReviewConsole } from '../../../test/review-console-fixtures.js';

// The reviewer's desk in the console (docs/decisions.md#decided-reviews): the queue names the customer, the decided
// list, a decided session's page with its history and no forms, and the checks beside the documents. Over the
// recording review service (test/review-console-fixtures.ts), whose texts carry markup the pages must escape.

const c = useReviewConsole();
const { signedIn } = c;

const open = async (url: string, cookie: string) => {
  const response = await c.app.inject({ method: 'GET', url, headers: { cookie } });
  expect(response.statusCode, response.body).toBe(200);
  return response.body;
};

describe('the reviewer desk', () => {
  it('names the customer organization in the queue and links to the decided sessions', async () => {
    const { cookie } = await signedIn();
    const queue = await open('/review', cookie);
    expect(queue).toContain('<dt>Customer</dt><dd>Duka &lt;Holdings&gt;</dd>');
    expect(queue).toContain('<a href="/review" aria-current="page">Waiting</a>');
    expect(queue).toContain('<a href="/review/decided">Decided</a>');
  });

  it('lists the decided sessions with who decided, when and why, and pages on', async () => {
    const { cookie } = await signedIn();
    const decided = await open('/review/decided', cookie);
    expect(decided).toContain('<a href="/review/decided" aria-current="page">Decided</a>');
    expect(decided).toContain(`href="/review/sessions/${DECIDED_SESSION_ID}"`);
    expect(decided).toContain('<dd>Duka &lt;Holdings&gt;</dd>');
    expect(decided).toContain('<dd>Rejected</dd>');
    expect(decided).toContain('Wanjiru &lt;Kamau&gt; (wanjiru@example.test)');
    expect(decided).toContain('<time datetime="2026-03-02T09:40:00.000Z">2026-03-02 09:40 UTC</time>');
    expect(decided).toContain('<dd>The ID card is &lt;expired&gt;</dd>');
    expect(decided).toContain('href="/review/decided?cursor=older-decisions"');

    await open('/review/decided?cursor=older-decisions', cookie);
    expect(c.reviews.listed.filter((list) => list.state === 'decided')).toEqual([
      { state: 'decided', cursor: undefined },
      { state: 'decided', cursor: 'older-decisions' },
    ]);
  });

  it("shows a decided session's decision and history, says its documents were erased, and offers no form", async () => {
    const { cookie } = await signedIn();
    const page = await open(`/review/sessions/${DECIDED_SESSION_ID}`, cookie);
    expect(page).toContain('This session is decided');
    expect(page).toContain('<dt>Decided by</dt><dd>Wanjiru &lt;Kamau&gt; (wanjiru@example.test)</dd>');
    expect(page).toContain('<dt>Reason</dt><dd>The ID card is &lt;expired&gt;</dd>');
    // The history: each change with when, who and why.
    expect(page).toContain('<td>processing → rejected</td><td>Wanjiru &lt;Kamau&gt; (wanjiru@example.test)</td>');
    expect(page).toContain('<td>pending</td><td><code>hosted_page</code></td><td>—</td>');
    expect(page).toContain('Its documents and submitted details were erased on');
    expect(page).toContain('None: they were erased.');
    expect(page).toContain('<a href="/review/decided">Back to the decided sessions</a>');
    expect(page).not.toContain('/claim"');
    expect(page).not.toContain('/decision"');
    expect(page).not.toContain('name="decision"');
  });

  it('shows the checks beside the documents of a waiting session, with its claim and decision forms', async () => {
    const { cookie } = await signedIn();
    const page = await open(`/review/sessions/${SESSION_ID}`, cookie);
    expect(page).toContain('<dt>Customer</dt><dd>Duka &lt;Holdings&gt;</dd>');
    // What the person stated beside the number, escaped, in the order the form asks for it.
    expect(page).toMatch(
      /<dt>ID number<\/dt><dd>12345678<\/dd><dt>First name<\/dt><dd>Wanjiru<\/dd><dt>Last name<\/dt><dd>&lt;Kamau&gt;<\/dd><dt>Date of birth<\/dt><dd>1994-05-17<\/dd>/,
    );
    expect(page).toMatch(/<div class="evidence"><section>.*alt="Selfie".*<\/section><section><h3>Checks<\/h3>/s);
    expect(page).toContain(
      '<td><code>id_registry</code></td><td class="outcome attention">attention</td><td>The typed ID number differs from the &lt;registry&gt; <span class="small">Code: <code>id_number_mismatch</code></span>',
    );
    // What the check saw of the person, folded, escaped.
    expect(page).toContain(
      '<details class="check-evidence"><summary>What the check saw of the person</summary><dl><dt>fullName</dt><dd>Wanjiru &lt;Kamau&gt;</dd><dt>idNumber</dt><dd>12345678</dd></dl></details>',
    );
    expect(page).toContain('<td>processing → requires_input</td><td>user_other_reviewer</td>');
    expect(page).toContain(`action="/review/sessions/${SESSION_ID}/claim"`);
    expect(page).toContain(`action="/review/sessions/${SESSION_ID}/decision"`);
    expect(page).not.toContain('This session is decided');
  });
});
