import { documentKindsOf } from '@platform/db';
import { isMessageKey, text } from '@platform/templates';
import type { ReviewDetail, ReviewService } from '../reviews/index.js';
import type { ReviewDesk, ReviewView } from './desk.js';

// The console's desk over the review service (../reviews): the same operations as /v1/reviews, shaped for pages.

const QUEUE_PAGE_SIZE = 25;

/** An ID type by its label in the catalog, or by its own name when the catalog has none (a type added since). */
function idTypeName(idType: string): string {
  const key = `idType.${idType}`;
  return isMessageKey(key) ? text('en', key) : idType;
}

/** The document links as paths: the console is served by main-api itself, whatever PUBLIC_URL says. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function detailsOf(review: ReviewDetail): ReviewView['details'] {
  const details = review.details;
  if (details === null) return [];
  if (details.type === 'kyc') {
    return [
      { label: text('en', 'console.detail.idType'), value: idTypeName(details.idType) },
      { label: text('en', 'console.detail.idNumber'), value: details.idNumber },
    ];
  }
  return [
    { label: text('en', 'console.detail.registrationNumber'), value: details.registrationNumber },
    { label: text('en', 'console.detail.companyName'), value: details.companyName ?? '—' },
  ];
}

const date = (value: string | null) => (value === null ? null : new Date(value));

export function reviewDeskOf(service: ReviewService, mayReview: (userId: string) => Promise<boolean>): ReviewDesk {
  return {
    async queue(cursor) {
      const page = await service.listQueue({ limit: QUEUE_PAGE_SIZE, cursor });
      return {
        items: page.reviews.map((entry) => ({ ...entry, submittedAt: date(entry.submittedAt) })),
        nextCursor: page.nextCursor,
      };
    },
    async review(sessionId, actor) {
      const review = await service.getReview(actor, sessionId);
      return {
        sessionId: review.sessionId,
        type: review.type,
        environment: review.environment,
        appName: review.appName,
        submittedAt: date(review.submittedAt),
        claimedBy: review.claimedBy,
        claimExpiresAt: date(review.claimExpiresAt),
        status: review.status,
        details: detailsOf(review),
        documents: review.documents.map((document) => ({ ...document, url: pathOf(document.url) })),
        history: review.history.map((change) => ({ to: change.to, reason: change.reason, at: new Date(change.at) })),
        resendableKinds: [...documentKindsOf(review.type)],
      };
    },
    async claim(sessionId, actor) {
      await service.claimReview(actor, sessionId);
    },
    async decide(sessionId, actor, input) {
      const { decision, reason, documents } = input;
      await service.decideReview(actor, sessionId, {
        decision,
        reason,
        ...(documents.length === 0 ? {} : { documents }),
      });
    },
    mayReview,
  };
}
