// What a ledger reference names. The writers: backend-api's session creation and @platform/verification-lifecycle
// (`verification_session:<session id>`, the hold and its capture or release), main-api's payment success
// (`payment:<payment reference>`, a top-up) and backend-api's wallets command (`manual:<uuid>` or the operator's own
// reference, a credit), the ledger itself (`test_credit:<organization id>`, a new test wallet's starting credit) and
// main-api's test top-ups (`test_top_up:<uuid>`). Nothing else places holds: drive folders cost nothing.

const SESSION_PREFIX = 'verification_session:';
const PAYMENT_PREFIX = 'payment:';

/** The session or the payment a movement belongs to, from its reference; null for both for a credit. */
export interface ReferenceSubject {
  sessionId: string | null;
  paymentReference: string | null;
}

export function referenceSubjectOf(reference: string): ReferenceSubject {
  const after = (prefix: string) => {
    const rest = reference.startsWith(prefix) ? reference.slice(prefix.length) : '';
    return rest === '' ? null : rest;
  };
  return { sessionId: after(SESSION_PREFIX), paymentReference: after(PAYMENT_PREFIX) };
}
