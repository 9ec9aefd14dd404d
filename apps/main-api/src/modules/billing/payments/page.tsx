/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import type { Payment } from '@platform/db';
import { say, text } from '@platform/templates';
import { htmlPage } from '../html.js';

/**
 * The page after the hosted card checkout for `payment` (undefined: none was found). It shows only the
 * outcome, never amounts or account details.
 */
export function checkoutCompletePage(payment: Payment | undefined): { status: 200 | 404; html: string } {
  if (payment === undefined) {
    const title = text('en', 'checkout.paymentNotFound');
    return { status: 404, html: htmlPage(title, <Outcome title={title} body={say('en', 'checkout.notFound.body')} />) };
  }
  const title = text('en', `checkout.headline.${payment.status}`);
  const body = say('en', `checkout.explanation.${payment.status}`);
  return { status: 200, html: htmlPage(title, <Outcome title={title} body={body} />) };
}

function Outcome({ title, body }: { title: string; body: ReturnType<typeof say> }) {
  return (
    <>
      <h1>{title}</h1>
      <p>{body}</p>
    </>
  );
}
