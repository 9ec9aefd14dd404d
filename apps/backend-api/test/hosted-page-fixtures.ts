import type { BackendApp } from '../src/app.js';
import { formTokenFor } from '../src/modules/verification/hosted-page/form-token.js';
import { type FormPart, multipart, pdfDocument } from './document-fixtures.js';

/** The hosted page's signing secret in the tests (`HOSTED_PAGE_SECRET`). */
export const HOSTED_PAGE_TEST_SECRET = 'a-hosted-page-secret-of-at-least-32-characters';

/** The form token the hosted page gives `sessionId`, as a person's browser would send it back. */
export const testFormToken = (sessionId: string) => formTokenFor(HOSTED_PAGE_TEST_SECRET, sessionId);

/**
 * What a person's browser sends to the hosted page of `app()` (asked on every request, so a suite may build its app
 * in a hook): the page, its plain form posts and its multipart upload of documents (with the session's form token
 * unless another is given).
 */
export function hostedPageRequests(app: () => BackendApp) {
  return {
    page: (id: string, query = '') => app().inject({ method: 'GET', url: `/session/${id}${query}` }),
    post: (id: string, fields: Record<string, string>) =>
      app().inject({
        method: 'POST',
        url: `/session/${id}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams(fields).toString(),
      }),
    upload: (id: string, parts: FormPart[], token = testFormToken(id)) => {
      const { payload, headers } = multipart([{ field: 'token', data: token }, ...parts]);
      return app().inject({ method: 'POST', url: `/session/${id}/documents`, headers, payload });
    },
  };
}

/** A picture the upload form sends in `field`. */
export const imagePart = (field: string, data: Buffer, contentType = 'image/png'): FormPart => ({
  field,
  filename: `${field}.png`,
  contentType,
  data,
});

/** A one-page PDF the upload form sends in `field`. */
export const pdfPart = async (field: string): Promise<FormPart> => ({
  field,
  filename: `${field}.pdf`,
  contentType: 'application/pdf',
  data: await pdfDocument(),
});

/** Where a redirect from `<id>/documents` or `<id>` lands, as a path and query the tests can GET. */
export const landing = (location: string | undefined) => (location ?? '').replace(/^(\.\.\/)?[0-9a-f-]{36}/, '');

/** What the kyc form asks of every person (names and date of birth), as a person types them. */
export const statedPersonParts: FormPart[] = [
  { field: 'firstName', data: 'Wanjiru' },
  { field: 'lastName', data: 'Kamau' },
  { field: 'dateOfBirth', data: '1990-05-31' },
];
