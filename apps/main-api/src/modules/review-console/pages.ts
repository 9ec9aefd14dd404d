import type { DocumentKind } from '@platform/db';
import { escapeHtml, htmlDocument } from '@platform/http';
import type { QueuePage, ReviewView } from './desk.js';

// The review console's pages as plain HTML: no script, no external asset, inline styles only (the CSP allows
// nothing else), forms that post and redirect. Every value from a request or the database goes through escapeHtml.

/** Where the console lives on main-api. */
export const CONSOLE_PATH = '/review';

const kindNames: Record<DocumentKind, string> = {
  id_document_front: 'ID document, front',
  id_document_back: 'ID document, back',
  selfie: 'Selfie',
  certificate_of_incorporation: 'Certificate of incorporation',
  cr12: 'CR12',
  kra_pin_certificate: 'KRA PIN certificate',
  director_id: 'Director ID',
};

function kindName(kind: DocumentKind): string {
  return kindNames[kind];
}

/** A notice shown once after a redirect (`?notice=`), as a status message screen readers announce. */
const notices: Record<string, string> = {
  signed_out: 'You are signed out.',
  claimed: 'The session is yours to decide for the next 30 minutes.',
  decided: 'The decision is recorded.',
};

export function noticeText(notice: unknown): string | undefined {
  return typeof notice === 'string' && Object.hasOwn(notices, notice) ? notices[notice] : undefined;
}

/** What was wrong with a decision form, said on the session's page after the redirect (`?error=`). */
const formProblems = {
  no_decision: 'Choose a decision.',
  no_reason: 'Give a reason: the person sees it.',
  unknown_documents: 'Choose documents from the list.',
  documents_without_request: 'Documents to send again go with "Ask for documents again" only.',
  refused:
    'The decision was not recorded: the reason can be at most 500 characters, and the documents must be ones this ' +
    'session takes.',
} as const;
export type FormProblem = keyof typeof formProblems;

export function problemText(problem: unknown): string | undefined {
  return typeof problem === 'string' && Object.hasOwn(formProblems, problem)
    ? formProblems[problem as FormProblem]
    : undefined;
}

interface Frame {
  title: string;
  body: string;
  csrfToken?: string | undefined;
  signedIn: boolean;
}

function page({ title, body, csrfToken, signedIn }: Frame): string {
  const signOut =
    signedIn && csrfToken !== undefined
      ? `<form method="post" action="${CONSOLE_PATH}/sign-out" class="inline">${csrfField(csrfToken)}<button type="submit" class="link">Sign out</button></form>`
      : '';
  return htmlDocument({
    title: `${title} · Review console`,
    styles: STYLES,
    body: `
<header><p class="brand"><a href="${CONSOLE_PATH}">Review console</a></p>${signOut}</header>
${body}`,
  });
}

function csrfField(token: string): string {
  return `<input type="hidden" name="_csrf" value="${escapeHtml(token)}">`;
}

function message(text: string | undefined, kind: 'status' | 'alert' = 'status'): string {
  if (text === undefined) return '';
  return `<p class="message ${kind}" role="${kind}">${escapeHtml(text)}</p>`;
}

export function signInPage({ csrfToken, error, notice }: { csrfToken: string; error?: string; notice?: string }) {
  return page({
    title: 'Sign in',
    signedIn: false,
    body: `
<h1>Sign in to review</h1>
${message(error, 'alert')}${message(notice)}
<p>Reviewers of the platform's organization sign in with an access token from the identity provider. The token is
exchanged for a session cookie and is not kept.</p>
<form method="post" action="${CONSOLE_PATH}/sign-in">
  ${csrfField(csrfToken)}
  <label for="token">Access token</label>
  <textarea id="token" name="token" rows="4" required autocomplete="off" spellcheck="false"></textarea>
  <button type="submit" class="primary">Sign in</button>
</form>`,
  });
}

function when(date: Date | null): string {
  if (date === null) return '—';
  return `<time datetime="${date.toISOString()}">${escapeHtml(date.toISOString().replace('T', ' ').slice(0, 16))} UTC</time>`;
}

export function queuePage({
  queue,
  reviewerId,
  csrfToken,
  notice,
}: {
  queue: QueuePage;
  reviewerId: string;
  csrfToken: string;
  notice?: string | undefined;
}) {
  const rows = queue.items
    .map(
      (item) => `
  <li class="card">
    <h2><a href="${CONSOLE_PATH}/sessions/${escapeHtml(item.sessionId)}">${item.type.toUpperCase()} · ${escapeHtml(item.appName ?? 'No app name')}</a></h2>
    <dl>
      <dt>Environment</dt><dd>${escapeHtml(item.environment)}</dd>
      <dt>Submitted</dt><dd>${when(item.submittedAt)}</dd>
      <dt>Claimed by</dt><dd>${item.claimedBy === null ? 'nobody' : item.claimedBy === reviewerId ? 'you' : escapeHtml(item.claimedBy)}</dd>
      <dt>Session</dt><dd><code>${escapeHtml(item.sessionId)}</code></dd>
    </dl>
  </li>`,
    )
    .join('');
  const more =
    queue.nextCursor === null
      ? ''
      : `<p><a href="${CONSOLE_PATH}?cursor=${encodeURIComponent(queue.nextCursor)}">Older sessions</a></p>`;
  return page({
    title: 'Queue',
    signedIn: true,
    csrfToken,
    body: `
<h1>Waiting for review</h1>
${message(notice)}
${queue.items.length === 0 ? '<p>Nothing is waiting for review.</p>' : `<p>Oldest first.</p><ol class="queue">${rows}</ol>`}
${more}`,
  });
}

export function reviewPage({
  review,
  reviewerId,
  csrfToken,
  error,
  notice,
}: {
  review: ReviewView;
  reviewerId: string;
  csrfToken: string;
  error?: string | undefined;
  notice?: string | undefined;
}) {
  const action = `${CONSOLE_PATH}/sessions/${escapeHtml(review.sessionId)}`;
  const claimedByOther = review.claimedBy !== null && review.claimedBy !== reviewerId;
  const claim =
    review.claimedBy === reviewerId
      ? `<p>You hold this session until ${when(review.claimExpiresAt)}.</p>`
      : claimedByOther
        ? `<p>Claimed by ${escapeHtml(review.claimedBy ?? '')} until ${when(review.claimExpiresAt)}.</p>`
        : `<form method="post" action="${action}/claim">${csrfField(csrfToken)}<button type="submit">Claim for 30 minutes</button></form>`;
  const details = review.details
    .map(({ label, value }) => `<dt>${escapeHtml(label)}</dt><dd>${escapeHtml(value)}</dd>`)
    .join('');
  const documents = review.documents
    .map((document) => {
      const name = escapeHtml(kindName(document.kind));
      const content = document.contentType.startsWith('image/')
        ? `<a href="${escapeHtml(document.url)}"><img src="${escapeHtml(document.url)}" alt="${name}"></a>`
        : `<p><a href="${escapeHtml(document.url)}" download>Download the PDF (${Math.ceil(document.size / 1024)} KB)</a></p>`;
      return `<figure class="document">${content}<figcaption>${name}</figcaption></figure>`;
    })
    .join('');
  const resend = review.resendableKinds
    .map(
      (kind) =>
        `<li><input type="checkbox" id="resend-${kind}" name="documents" value="${kind}"><label for="resend-${kind}">${escapeHtml(kindName(kind))}</label></li>`,
    )
    .join('');
  const decision = claimedByOther
    ? ''
    : `
<form method="post" action="${action}/decision" class="decision">
  ${csrfField(csrfToken)}
  <fieldset>
    <legend>Decision</legend>
    <ul class="choices">
      <li><input type="radio" id="decision-verified" name="decision" value="verified" required><label for="decision-verified">Verified</label></li>
      <li><input type="radio" id="decision-rejected" name="decision" value="rejected"><label for="decision-rejected">Rejected</label></li>
      <li><input type="radio" id="decision-requires_input" name="decision" value="requires_input"><label for="decision-requires_input">Ask for documents again</label></li>
    </ul>
  </fieldset>
  <label for="reason">Reason (shown to the person; required unless verified)</label>
  <textarea id="reason" name="reason" rows="3" maxlength="500"></textarea>
  <fieldset>
    <legend>Documents to send again (when asking again)</legend>
    <ul class="choices">${resend}</ul>
  </fieldset>
  <button type="submit" class="primary">Record the decision</button>
</form>`;
  return page({
    title: `${review.type.toUpperCase()} review`,
    signedIn: true,
    csrfToken,
    body: `
<p><a href="${CONSOLE_PATH}">Back to the queue</a></p>
<h1>${review.type.toUpperCase()} · ${escapeHtml(review.appName ?? 'No app name')}</h1>
${message(error, 'alert')}${message(notice)}
<dl>
  <dt>Environment</dt><dd>${escapeHtml(review.environment)}</dd>
  <dt>Status</dt><dd>${escapeHtml(review.status)}</dd>
  <dt>Submitted</dt><dd>${when(review.submittedAt)}</dd>
  <dt>Session</dt><dd><code>${escapeHtml(review.sessionId)}</code></dd>
</dl>
${claim}
<h2>Submitted details</h2>
${details === '' ? '<p>None.</p>' : `<dl>${details}</dl>`}
<h2>History</h2>
<ol class="history">${review.history
      .map(
        (change) =>
          `<li>${when(change.at)}: ${escapeHtml(change.to)}${change.reason === null ? '' : ` (${escapeHtml(change.reason)})`}</li>`,
      )
      .join('')}</ol>
<h2>Documents</h2>
<p>Links are valid for 5 minutes; reload the page for new ones. Every view is recorded in the audit log.</p>
<div class="documents">${documents === '' ? '<p>None.</p>' : documents}</div>
${decision}`,
  });
}

export function errorPage({ status, text, signedIn }: { status: number; text: string; signedIn: boolean }) {
  return page({
    title: status === 404 ? 'Not found' : 'Cannot do that',
    signedIn: false,
    body: `
<h1>${status === 404 ? 'Not found' : 'Cannot do that'}</h1>
${message(text, 'alert')}
<p><a href="${CONSOLE_PATH}">${signedIn ? 'Back to the queue' : 'Sign in'}</a></p>`,
  });
}

// Colours meet WCAG AA on white (the darkest text #1f2328, links #0550ae, alerts #82071e on #ffebe9).
const STYLES = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1f2328;background:#fff}
main{max-width:64rem;margin:0 auto;padding:1rem}
header{display:flex;justify-content:space-between;align-items:center;flex-wrap:wrap;gap:.5rem;border-bottom:1px solid #d0d7de;margin-bottom:1rem}
.brand{font-weight:700;margin:.5rem 0}
a{color:#0550ae}
a:focus,button:focus,input:focus,textarea:focus{outline:3px solid #0969da;outline-offset:2px}
h1{font-size:1.5rem;margin:.5rem 0 1rem}
h2{font-size:1.15rem;margin:1.5rem 0 .5rem}
.card h2{margin:0 0 .5rem}
dl{display:grid;grid-template-columns:max-content 1fr;gap:.25rem 1rem;margin:0 0 1rem}
dt{font-weight:600}
dd{margin:0;overflow-wrap:anywhere}
code{font-size:.9em;overflow-wrap:anywhere}
.history{padding-left:1.25rem;margin:0}
.queue{list-style:none;padding:0;margin:0;display:grid;gap:.75rem}
.card{border:1px solid #d0d7de;border-radius:6px;padding:.75rem}
.documents{display:grid;grid-template-columns:repeat(auto-fit,minmax(16rem,1fr));gap:1rem}
.document{margin:0;border:1px solid #d0d7de;border-radius:6px;padding:.5rem}
.document img{display:block;width:100%;height:auto}
figcaption{margin-top:.25rem;font-weight:600}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
.choices{list-style:none;padding:0;margin:0}
.choices li{display:flex;align-items:center;gap:.5rem;min-height:2rem}
.choices label{display:inline;margin:0;font-weight:400}
input[type=radio],input[type=checkbox]{width:1.25rem;height:1.25rem;margin:0}
fieldset{border:1px solid #d0d7de;border-radius:6px;margin:1rem 0;padding:.5rem .75rem}
legend{font-weight:600;padding:0 .25rem}
textarea{display:block;width:100%;font:inherit;padding:.5rem;border:1px solid #6e7781;border-radius:6px}
button{font:inherit;min-height:2.75rem;padding:.5rem 1rem;border:1px solid #6e7781;border-radius:6px;background:#f6f8fa;color:#1f2328;cursor:pointer;margin-top:.75rem}
button.primary{background:#1a7f37;border-color:#1a7f37;color:#fff}
button.link{background:none;border:none;color:#0550ae;text-decoration:underline;padding:.5rem 0;margin:0}
.inline{margin:0}
.message{padding:.5rem .75rem;border-radius:6px}
.message.status{background:#dafbe1;color:#0f5323}
.message.alert{background:#ffebe9;color:#82071e}
`;
