import type { SessionLocale, VerificationSession, VerificationStatus } from '@platform/db';
import { locales } from '@platform/templates';
import type { SdkTarget } from './sdk.js';

// What the hosted verification page's URLs and forms carry: the buttons, the notices, the page's language and the
// SDK's mode. The pages themselves are *-page.tsx (docs/decisions.md#html-templates).

/** The sandbox buttons, in the order the page may show them. */
export const sandboxActions = ['submit', 'approve', 'reject', 'request_resubmission'] as const;
export type SandboxAction = (typeof sandboxActions)[number];

/** The consent form's two buttons. */
export const consentAnswers = ['agree', 'decline'] as const;

/** The review step's two buttons. */
export const reviewAnswers = ['confirm', 'change'] as const;

/** What the page says after a form post; only these fixed codes travel in the URL, never free text. */
export const noticeCodes = [
  'submitted',
  'approved',
  'rejected',
  'resubmission_requested',
  'moved_on',
  'form_expired',
  'sandbox_off',
  'consent_recorded',
  'consent_needed',
  'upload_failed',
] as const;
export type NoticeCode = (typeof noticeCodes)[number];

export const problemNotices: ReadonlySet<NoticeCode> = new Set([
  'moved_on',
  'form_expired',
  'sandbox_off',
  'consent_needed',
  'upload_failed',
]);

/**
 * The language the page is shown in, and whether `?lang=` chose it; and the front-end SDK's mode and origin when the
 * SDK opened it from an allowed origin. The page's links and forms keep both (`keptQuery`).
 */
export interface PageLanguage {
  locale: SessionLocale;
  chosen: boolean;
  sdk?: SdkTarget | undefined;
}

/** The query every link, form and redirect of the page carries on: `lang` when chosen, `sdk` and `origin`. */
export function keptQuery(language: PageLanguage): string {
  const query = new URLSearchParams();
  if (language.chosen) query.set('lang', language.locale);
  if (language.sdk !== undefined) {
    query.set('sdk', language.sdk.mode);
    query.set('origin', language.sdk.origin);
  }
  return query.toString();
}

/** The page's own address (relative: `<id>`) with the kept query. */
export function pageUrl(session: VerificationSession, language: PageLanguage): string {
  const kept = keptQuery(language);
  return kept === '' ? session.id : `${session.id}?${kept}`;
}

export const isOpen = (status: VerificationStatus) =>
  status === 'pending' || status === 'requires_input' || status === 'processing';

/** The buttons a tester can use from the session's current status. */
export function sandboxActionsFor(status: VerificationStatus): SandboxAction[] {
  if (status === 'pending' || status === 'requires_input') return ['submit'];
  if (status === 'processing') return ['approve', 'reject', 'request_resubmission'];
  return [];
}

/** `?lang=` when it names a language of the page; anything else is ignored. */
export function pageLanguageOf(lang: unknown): SessionLocale | undefined {
  return locales.find((locale) => locale === lang);
}
