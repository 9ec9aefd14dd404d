import type { VerificationSession, VerificationStatus } from '@platform/db';
import { escapeHtml, htmlDocument } from '@platform/http';
import { requiredDocumentLabel } from '../index.js';

// The hosted verification page as plain HTML: no script, no external asset, inline styles only (the CSP allows
// nothing else). Every value that comes from a request or the database goes through escapeHtml.

/** The sandbox buttons, in the order the page may show them. */
export const sandboxActions = ['submit', 'approve', 'reject', 'request_resubmission'] as const;
export type SandboxAction = (typeof sandboxActions)[number];

/** What the page says after a form post; only these fixed codes travel in the URL, never free text. */
export const noticeCodes = [
  'submitted',
  'approved',
  'rejected',
  'resubmission_requested',
  'moved_on',
  'form_expired',
  'sandbox_off',
] as const;
export type NoticeCode = (typeof noticeCodes)[number];

const notices: Record<NoticeCode, { text: string; problem: boolean }> = {
  submitted: { text: 'The documents were submitted for checking.', problem: false },
  approved: { text: 'The verification was approved.', problem: false },
  rejected: { text: 'The verification was rejected.', problem: false },
  resubmission_requested: { text: 'New documents were requested.', problem: false },
  moved_on: {
    text: 'The session changed in the meantime, so nothing was done. Here is where it stands now.',
    problem: true,
  },
  form_expired: { text: 'That form has expired, so nothing was done. Please try again.', problem: true },
  sandbox_off: { text: 'Sandbox controls are not available for this session.', problem: true },
};

const statusLabels: Record<VerificationStatus, string> = {
  pending: 'Waiting for documents',
  processing: 'Processing',
  requires_input: 'More information needed',
  verified: 'Verified',
  rejected: 'Rejected',
  expired: 'Expired',
  canceled: 'Canceled',
};

export interface SessionPageInput {
  session: VerificationSession;
  /** Sandbox controls are shown with this form token; null when the session has no sandbox. */
  sandboxFormToken: string | null;
  notice: NoticeCode | undefined;
}

export function renderSessionPage({ session, sandboxFormToken, notice }: SessionPageInput): string {
  const requester = session.appName ?? 'the app that sent you here';
  const subject = session.type === 'kyb' ? 'your business' : 'your identity';
  const status = statusLabels[session.status];
  const documents = (session.requiredDocuments as string[])
    .map((document) => `<li>${escapeHtml(requiredDocumentLabel(document))}</li>`)
    .join('');
  const body = `
    ${session.appName === null ? '' : `<p class="requester">Requested by <strong>${escapeHtml(session.appName)}</strong></p>`}
    <h1>Verify ${subject}</h1>
    ${session.environment === 'test' ? '<p class="badge">Test session</p>' : ''}
    ${notice === undefined ? '' : noticeHtml(notice)}
    <section aria-labelledby="status-heading">
      <h2 id="status-heading">Status</h2>
      <p class="status status-${session.status}" id="session-status">${escapeHtml(status)}</p>
      <p>${escapeHtml(nextStep(session, requester))}</p>
      ${reasonHtml(session)}
    </section>
    <section aria-labelledby="documents-heading">
      <h2 id="documents-heading">Documents you need</h2>
      <ul>${documents}</ul>
    </section>
    ${sandboxFormToken === null ? '' : sandboxHtml(session, sandboxFormToken)}
    ${isOpen(session.status) ? `<p class="small">This link works until ${escapeHtml(formatTime(session.expiresAt))}.</p>` : ''}`;
  return layout(`${status}: verify ${subject}`, body);
}

export function renderNotFoundPage(): string {
  return layout(
    'Verification not found',
    `
    <h1>Verification not found</h1>
    <p>This verification link is not valid. Check that you opened the whole link, or ask the app that sent you here
    for a new one.</p>`,
  );
}

function nextStep(session: VerificationSession, requester: string): string {
  switch (session.status) {
    case 'pending':
      return 'Have the documents listed below ready. The check starts once they are submitted.';
    case 'processing':
      return 'Your documents are being checked. Reload this page to see the result.';
    case 'requires_input':
      return 'Please submit your documents again.';
    case 'verified':
      return `All done. You can return to ${requester}.`;
    case 'rejected':
      return `The verification was not successful. Contact ${requester} if you think this is a mistake.`;
    case 'expired':
      return `This link has expired. Ask ${requester} for a new one.`;
    case 'canceled':
      return `This verification was canceled. Ask ${requester} for a new link if you still need to verify.`;
  }
}

function reasonHtml(session: VerificationSession): string {
  if (session.lastError === null || (session.status !== 'requires_input' && session.status !== 'rejected')) return '';
  return `<p class="reason"><strong>Reason:</strong> ${escapeHtml(session.lastError)}</p>`;
}

function noticeHtml(code: NoticeCode): string {
  const { text, problem } = notices[code];
  return `<p class="notice${problem ? ' notice-problem' : ''}" role="${problem ? 'alert' : 'status'}">${escapeHtml(text)}</p>`;
}

const isOpen = (status: VerificationStatus) =>
  status === 'pending' || status === 'requires_input' || status === 'processing';

/** The buttons a tester can use from the session's current status. */
export function sandboxActionsFor(status: VerificationStatus): SandboxAction[] {
  if (status === 'pending' || status === 'requires_input') return ['submit'];
  if (status === 'processing') return ['approve', 'reject', 'request_resubmission'];
  return [];
}

function sandboxHtml(session: VerificationSession, token: string): string {
  const actions = sandboxActionsFor(session.status);
  const intro =
    session.environment === 'test'
      ? 'This is a test session: nothing is checked. Use these controls to play the part of the verification team.'
      : 'Sandbox controls are switched on for live sessions on this server: nothing is checked.';
  const forms =
    actions.length === 0
      ? '<p>This session is finished; there is nothing more to do.</p>'
      : actions.map((action) => sandboxForm(session.id, token, action)).join('');
  return `
    <section class="sandbox" aria-labelledby="sandbox-heading">
      <h2 id="sandbox-heading">Sandbox controls</h2>
      <p>${intro}</p>
      ${forms}
    </section>`;
}

const actionButtons: Record<SandboxAction, { label: string; reasonLabel?: string; style: string }> = {
  submit: { label: 'Submit', style: 'primary' },
  approve: { label: 'Approve', style: 'primary' },
  reject: { label: 'Reject', reasonLabel: 'Reason for rejecting (optional)', style: 'danger' },
  request_resubmission: {
    label: 'Request resubmission',
    reasonLabel: 'What should the end user send again? (optional)',
    style: 'secondary',
  },
};

function sandboxForm(sessionId: string, token: string, action: SandboxAction): string {
  const { label, reasonLabel, style } = actionButtons[action];
  const reasonId = `${action}-reason`;
  // A relative action posts back to this page's own address, whatever path prefix serves it.
  return `
      <form method="post" action="${escapeHtml(sessionId)}">
        <input type="hidden" name="token" value="${escapeHtml(token)}">
        <input type="hidden" name="action" value="${action}">
        ${
          reasonLabel === undefined
            ? ''
            : `<label for="${reasonId}">${escapeHtml(reasonLabel)}</label>
        <input type="text" id="${reasonId}" name="reason" maxlength="500" autocomplete="off">`
        }
        <button type="submit" class="${style}">${escapeHtml(label)}</button>
      </form>`;
}

const timeFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeStyle: 'short', timeZone: 'UTC' });

function formatTime(date: Date): string {
  return `${timeFormat.format(date)} UTC`;
}

function layout(title: string, body: string): string {
  return htmlDocument({ title, styles, body });
}

// Colours meet WCAG AA contrast on their backgrounds; focus is always visible.
const styles = `
*,*::before,*::after{box-sizing:border-box}
body{margin:0;background:#f4f5f7;color:#1f2328;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif}
main{max-width:38rem;margin:2rem auto;padding:1.5rem 2rem;background:#fff;border:1px solid #d0d7de;border-radius:8px}
h1{font-size:1.6rem;margin:.25rem 0 1rem}
h2{font-size:1.1rem;margin:1.5rem 0 .5rem}
.requester{margin:0;color:#57606a}
.badge{display:inline-block;margin:0 0 .5rem;padding:.1rem .6rem;border:1px solid #9a6700;border-radius:999px;color:#7d4e00;background:#fff8c5;font-size:.875rem}
.status{display:inline-block;margin:0;padding:.25rem .75rem;border-radius:6px;font-weight:600;border:1px solid #d0d7de}
.status-verified{background:#dafbe1;color:#116329;border-color:#4ac26b}
.status-rejected,.status-expired,.status-canceled{background:#ffebe9;color:#a40e26;border-color:#ff8182}
.status-processing,.status-pending,.status-requires_input{background:#ddf4ff;color:#0a3069;border-color:#54aeff}
.reason{padding:.5rem .75rem;background:#fff8c5;border-left:4px solid #9a6700}
.notice{padding:.5rem .75rem;border-radius:6px;background:#dafbe1;color:#116329}
.notice-problem{background:#ffebe9;color:#a40e26}
.sandbox{margin-top:1.5rem;padding:1rem;border:2px dashed #8c959f;border-radius:8px}
.sandbox h2{margin-top:0}
form{margin:.75rem 0}
label{display:block;margin-bottom:.25rem;font-weight:600}
input[type=text]{display:block;width:100%;margin-bottom:.5rem;padding:.5rem;font:inherit;border:1px solid #8c959f;border-radius:6px}
button{padding:.5rem 1.25rem;font:inherit;font-weight:600;border-radius:6px;border:1px solid transparent;cursor:pointer}
button.primary{background:#1f6feb;color:#fff}
button.danger{background:#cf222e;color:#fff}
button.secondary{background:#f6f8fa;color:#1f2328;border-color:#8c959f}
a:focus-visible,button:focus-visible,input:focus-visible{outline:3px solid #0969da;outline-offset:2px}
.small{font-size:.875rem;color:#57606a}
@media (max-width:40rem){main{margin:0;border:0;border-radius:0;padding:1rem}}
`;
