/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { Payment } from '@platform/db';
import { say, text } from '@platform/templates';
import { htmlPage } from '../html.js';

/**
 * The page after the hosted card checkout for `payment` (undefined: none was found). It shows only the
 * outcome, never amounts or account details; with the dashboard on, a link back to its payment history (a browser
 * that is not signed in signs in first and comes back to it).
 */
export function checkoutCompletePage(
  payment: Payment | undefined,
  dashboardPaymentsPath?: string,
): { status: 200 | 404; html: string } {
  if (payment === undefined) {
    const title = text('en', 'checkout.paymentNotFound');
    return { status: 404, html: htmlPage(title, <Outcome title={title} body={say('en', 'checkout.notFound.body')} />) };
  }
  const title = text('en', `checkout.headline.${payment.status}`);
  const body = say('en', `checkout.explanation.${payment.status}`);
  const back =
    dashboardPaymentsPath === undefined ? undefined : `${dashboardPaymentsPath}?org=${payment.organizationId}`;
  return { status: 200, html: htmlPage(title, <Outcome title={title} body={body} back={back} />) };
}

function Outcome({ title, body, back }: { title: string; body: ReturnType<typeof say>; back?: string | undefined }) {
  return (
    <>
      <h1>{title}</h1>
      <p>{body}</p>
      {back === undefined ? null : (
        <p>
          <a href={back}>{say('en', 'checkout.dashboardLink')}</a>
        </p>
      )}
    </>
  );
}
