/** @jsxRuntime automatic */
/** @jsxImportSource @platform/templates */
import { documentKindsOf } from '@platform/db';
import { isMessageKey, type JSX, type MessageKey, say, text } from '@platform/templates';
import type { StatedPerson } from '@platform/verification-lifecycle';
import { type ReviewDetail, reviewDecisions } from '../reviews/index.js';
import {
  ActorName,
  CONSOLE_PATH,
  CsrfField,
  DECIDED_PATH,
  kindName,
  Message,
  page,
  statusName,
  When,
} from './page-parts.js';

// A session's page: what was submitted, the documents with the checks' results beside them, the history (who moved
// it, when, why), and, while it waits, the claim and the decision forms. A decided session
// (docs/decisions.md#decided-reviews) shows its decision instead of the forms, and says when its documents were erased.

/** An ID type by its label in the catalog, or by its own name when the catalog has none (a type added since). */
function idTypeName(idType: string): string {
  const key = `idType.${idType}`;
  return isMessageKey(key) ? text('en', key) : idType;
}

/** What a person may state beside the ID number, in the order the hosted form asks for it. */
const statedFields = [
  ['firstName', 'console.detail.firstName'],
  ['middleName', 'console.detail.middleName'],
  ['lastName', 'console.detail.lastName'],
  ['dateOfBirth', 'console.detail.dateOfBirth'],
  ['nationality', 'console.detail.nationality'],
  ['documentExpiry', 'console.detail.documentExpiry'],
  ['mrz', 'console.detail.mrz'],
] as const satisfies ReadonlyArray<readonly [keyof StatedPerson, MessageKey]>;

/** The submitted details as labelled values (ID type and number, or registration number and company name). */
function detailsOf(review: ReviewDetail): Array<{ label: string; value: string }> {
  const details = review.details;
  if (details === null) return [];
  if (details.type === 'kyc') {
    const stated = statedFields.flatMap(([field, key]) => {
      const value = details[field];
      return value === undefined ? [] : [{ label: text('en', key), value }];
    });
    return [
      { label: text('en', 'console.detail.idType'), value: idTypeName(details.idType) },
      { label: text('en', 'console.detail.idNumber'), value: details.idNumber },
      ...stated,
    ];
  }
  return [
    { label: text('en', 'console.detail.registrationNumber'), value: details.registrationNumber },
    { label: text('en', 'console.detail.companyName'), value: details.companyName ?? '—' },
  ];
}

/** A document link as a path: the console is served by main-api itself, whatever PUBLIC_URL says. */
function pathOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.pathname}${parsed.search}`;
}

function Documents({ review }: { review: ReviewDetail }) {
  if (review.documents.length === 0) {
    return <p>{say('en', review.personalDataErasedAt === null ? 'console.none' : 'console.review.documentsErased')}</p>;
  }
  return (
    <>
      <p>{say('en', 'console.review.links')}</p>
      <div class="documents">
        {review.documents.map((document) => {
          const name = kindName(document.kind);
          const url = pathOf(document.url);
          return (
            <figure class="document">
              {document.contentType.startsWith('image/') ? (
                <a href={url}>
                  <img src={url} alt={name} />
                </a>
              ) : (
                <p>
                  <a href={url} download>
                    {say('en', 'console.review.downloadPdf', { size: Math.ceil(document.sizeBytes / 1024) })}
                  </a>
                </p>
              )}
              <figcaption>{name}</figcaption>
            </figure>
          );
        })}
      </div>
    </>
  );
}

/** The checks of the submissions, beside the documents: what each found, in the service's words. */
function Checks({ review }: { review: ReviewDetail }) {
  if (review.checks.length === 0) return <p>{say('en', 'console.review.noChecks')}</p>;
  return (
    <ScrollingTable label={text('en', 'console.review.checks')}>
      <table class="checks">
        <thead>
          <tr>
            <th scope="col">{say('en', 'console.check.kind')}</th>
            <th scope="col">{say('en', 'console.check.outcome')}</th>
            <th scope="col">{say('en', 'console.check.summary')}</th>
            <th scope="col">{say('en', 'console.check.source')}</th>
            <th scope="col">{say('en', 'console.check.made')}</th>
          </tr>
        </thead>
        <tbody>
          {review.checks.map((check) => (
            <tr>
              <td>
                <code>{check.kind}</code>
              </td>
              <td class={`outcome ${check.outcome}`}>{check.outcome}</td>
              <td>
                {check.summary}
                {check.code === null ? null : (
                  <>
                    {' '}
                    <span class="small">
                      {say('en', 'console.check.code')}: <code>{check.code}</code>
                    </span>
                  </>
                )}
                <Evidence evidence={check.evidence} />
              </td>
              <td>
                <code>{check.source}</code>
              </td>
              <td>
                <When at={check.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollingTable>
  );
}

/**
 * What a check saw of the person (the registry's names, screening hits), folded so the table stays readable: a
 * `<details>` opens without script.
 */
function Evidence({ evidence }: { evidence: Record<string, unknown> | null }) {
  if (evidence === null) return null;
  return (
    <details class="check-evidence">
      <summary>{say('en', 'console.check.evidence')}</summary>
      <dl>
        {Object.entries(evidence).map(([name, value]) => (
          <>
            <dt>{name}</dt>
            <dd>{typeof value === 'string' ? value : JSON.stringify(value)}</dd>
          </>
        ))}
      </dl>
    </details>
  );
}

/**
 * A table wider than a phone scrolls sideways in its own region, its words kept whole, rather than broken letter by
 * letter into columns; focusable, so a keyboard scrolls it too.
 */
function ScrollingTable({ label, children }: { label: string; children: JSX.Element }) {
  return (
    <section class="table-scroll" aria-label={label} tabindex={0}>
      {children}
    </section>
  );
}

/** Every status change: when, to what, who made it and why. */
function History({ review, reviewerId }: { review: ReviewDetail; reviewerId: string }) {
  return (
    <ScrollingTable label={text('en', 'console.review.history')}>
      <table class="history">
        <thead>
          <tr>
            <th scope="col">{say('en', 'console.history.when')}</th>
            <th scope="col">{say('en', 'console.history.change')}</th>
            <th scope="col">{say('en', 'console.history.by')}</th>
            <th scope="col">{say('en', 'console.history.why')}</th>
          </tr>
        </thead>
        <tbody>
          {review.history.map((change) => (
            <tr>
              <td>
                <When at={change.at} />
              </td>
              <td>{change.from === null ? change.to : `${change.from} → ${change.to}`}</td>
              <td>
                <ActorName actor={change.actor} reviewerId={reviewerId} />
              </td>
              <td>{change.reason ?? '—'}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </ScrollingTable>
  );
}

/** A decided session's decision: what, by whom, when and why, in place of the forms. */
function Decision({ review, reviewerId }: { review: ReviewDetail; reviewerId: string }) {
  return (
    <section>
      <h2>{say('en', 'console.review.decision')}</h2>
      <p>{say('en', 'console.review.decidedNote')}</p>
      <dl>
        <dt>{say('en', 'console.field.decision')}</dt>
        <dd>{review.decision === null ? '—' : statusName(review.decision)}</dd>
        <dt>{say('en', 'console.field.decidedBy')}</dt>
        <dd>
          <ActorName actor={review.decidedBy} reviewerId={reviewerId} />
        </dd>
        <dt>{say('en', 'console.field.decidedAt')}</dt>
        <dd>
          <When at={review.decidedAt} />
        </dd>
        <dt>{say('en', 'console.field.reason')}</dt>
        <dd>{review.reason ?? '—'}</dd>
      </dl>
    </section>
  );
}

function ClaimState({
  review,
  reviewerId,
  csrfToken,
}: {
  review: ReviewDetail;
  reviewerId: string;
  csrfToken: string;
}) {
  const until = <When at={review.claimExpiresAt} />;
  if (review.claimedBy === reviewerId) return <p>{say('en', 'console.review.yours', { time: until })}</p>;
  if (review.claimedBy !== null) {
    return <p>{say('en', 'console.review.claimedByOther', { reviewer: review.claimedBy, time: until })}</p>;
  }
  return (
    <form method="post" action={`${CONSOLE_PATH}/sessions/${review.sessionId}/claim`}>
      <CsrfField token={csrfToken} />
      <button type="submit">{say('en', 'console.review.claim')}</button>
    </form>
  );
}

function DecisionForm({ review, csrfToken }: { review: ReviewDetail; csrfToken: string }) {
  return (
    <form method="post" action={`${CONSOLE_PATH}/sessions/${review.sessionId}/decision`} class="decision">
      <CsrfField token={csrfToken} />
      <fieldset>
        <legend>{say('en', 'console.decision.legend')}</legend>
        <ul class="choices">
          {reviewDecisions.map((value, index) => (
            <li>
              <input type="radio" id={`decision-${value}`} name="decision" value={value} required={index === 0} />
              <label for={`decision-${value}`}>{say('en', `console.decision.${value}`)}</label>
            </li>
          ))}
        </ul>
      </fieldset>
      <label for="reason">{say('en', 'console.decision.reason')}</label>
      <textarea id="reason" name="reason" rows={3} maxlength={500}></textarea>
      <fieldset>
        <legend>{say('en', 'console.decision.resend')}</legend>
        <ul class="choices">
          {documentKindsOf(review.type).map((kind) => (
            <li>
              <input type="checkbox" id={`resend-${kind}`} name="documents" value={kind} />
              <label for={`resend-${kind}`}>{kindName(kind)}</label>
            </li>
          ))}
        </ul>
      </fieldset>
      <button type="submit" class="primary">
        {say('en', 'console.decision.submit')}
      </button>
    </form>
  );
}

export function reviewPage(input: {
  review: ReviewDetail;
  reviewerId: string;
  csrfToken: string;
  error?: string | undefined;
  notice?: string | undefined;
}) {
  const { review, reviewerId, csrfToken, error, notice } = input;
  // Waiting means processing; anything else reached this page because a reviewer decided it.
  const decided = review.status !== 'processing';
  const claimedByOther = review.claimedBy !== null && review.claimedBy !== reviewerId;
  const details = detailsOf(review);
  return page({
    title: text('en', 'console.review.title', { type: review.type.toUpperCase() }),
    signedIn: true,
    csrfToken,
    body: (
      <>
        <p>
          {decided ? (
            <a href={DECIDED_PATH}>{say('en', 'console.backToDecided')}</a>
          ) : (
            <a href={CONSOLE_PATH}>{say('en', 'console.backToQueue')}</a>
          )}
        </p>
        <h1>
          {review.type.toUpperCase()} · {review.appName ?? text('en', 'console.noAppName')}
        </h1>
        <Message text={error} kind="alert" />
        <Message text={notice} />
        <dl>
          <dt>{say('en', 'console.field.organization')}</dt>
          <dd>{review.organization.name}</dd>
          <dt>{say('en', 'console.field.environment')}</dt>
          <dd>{review.environment}</dd>
          <dt>{say('en', 'console.field.status')}</dt>
          <dd>{review.status}</dd>
          <dt>{say('en', 'console.field.submitted')}</dt>
          <dd>
            <When at={review.submittedAt} />
          </dd>
          <dt>{say('en', 'console.field.session')}</dt>
          <dd>
            <code>{review.sessionId}</code>
          </dd>
        </dl>
        {decided ? (
          <Decision review={review} reviewerId={reviewerId} />
        ) : (
          <ClaimState review={review} reviewerId={reviewerId} csrfToken={csrfToken} />
        )}
        {review.personalDataErasedAt === null ? null : (
          <p>
            <strong>{say('en', 'console.review.erased', { time: <When at={review.personalDataErasedAt} /> })}</strong>
          </p>
        )}
        <h2>{say('en', 'console.review.details')}</h2>
        {details.length === 0 ? (
          <p>{say('en', 'console.none')}</p>
        ) : (
          <dl>
            {details.map(({ label, value }) => (
              <>
                <dt>{label}</dt>
                <dd>{value}</dd>
              </>
            ))}
          </dl>
        )}
        <h2>{say('en', 'console.review.history')}</h2>
        <History review={review} reviewerId={reviewerId} />
        <h2>{say('en', 'console.review.documents')}</h2>
        <div class="evidence">
          <section>
            <Documents review={review} />
          </section>
          <section>
            <h3>{say('en', 'console.review.checks')}</h3>
            <Checks review={review} />
          </section>
        </div>
        {decided || claimedByOther ? null : <DecisionForm review={review} csrfToken={csrfToken} />}
      </>
    ),
  });
}
