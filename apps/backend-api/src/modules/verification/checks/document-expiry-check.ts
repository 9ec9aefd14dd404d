import type { DocumentKind, IdType } from '@platform/db';
import type { CheckResult } from './check-results.js';

// The document expiry check (docs/decisions.md#own-checks): an ID document that expired before the day of the
// submission asks for a valid one. The expiry is the one typed or, for a passport without one, its MRZ's.

/** The documents that show the ID: a passport's photo page, or both sides of a card. */
function idDocumentKinds(idType: IdType): DocumentKind[] {
  return idType === 'passport' ? ['id_document_front'] : ['id_document_front', 'id_document_back'];
}

export function documentExpiryCheck(
  expiry: { date: string; from: 'typed' | 'mrz' } | undefined,
  { idType, today }: { idType: IdType; today: string },
): CheckResult {
  if (expiry === undefined) {
    return {
      kind: 'document_expiry',
      source: 'service',
      outcome: 'not_applicable',
      summary: 'No expiry date was stated (ID cards issued before Maisha cards have none).',
    };
  }
  const base = { kind: 'document_expiry', source: 'service', details: { from: expiry.from } } as const;
  // A document is valid on its expiry day.
  if (expiry.date >= today) {
    return { ...base, outcome: 'passed', summary: 'The ID document has not expired.' };
  }
  return {
    ...base,
    outcome: 'failed',
    code: 'document_expired',
    summary: 'The ID document expired before it was submitted.',
    consequence: {
      decision: 'requires_input',
      reason: 'The ID document has expired: send a valid one, with its details',
      resubmitDocuments: idDocumentKinds(idType),
    },
  };
}
