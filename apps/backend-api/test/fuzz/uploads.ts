import { type FuzzRequest, hostileStrings } from '@platform/http/testing';
import fc from 'fast-check';
import { type FormPart, multipart } from '../document-fixtures.js';

/** Files to send: real documents, bytes that only claim to be one, and broken ones. */
export interface UploadFiles {
  image: Buffer;
  pdf: Buffer;
  smallImage: Buffer;
  /** PDFs with scripts, actions or attachments, their names spelled with lower-case #xx escapes and hidden. */
  activePdfs: Buffer[];
}

const API_ROUTE = 'POST /v1/verify/sessions/:id/documents';
const PAGE_ROUTE = 'POST /session/:id/documents';
/** The routes `documentUploads` are sent to. */
export const UPLOAD_ROUTES: readonly string[] = [API_ROUTE, PAGE_ROUTE];

/**
 * Document uploads as multipart bodies (the API's documents route and the hosted page's capture form, the routes
 * that take files, which the JSON-minded generators cannot make): real images and PDFs, bytes that only claim to be one, every kind and made-up ones, odd fields and part
 * counts, and a broken boundary, to the fuzzed sessions and made-up ids.
 */
export function documentUploads(
  credentials: fc.Arbitrary<Record<string, string>>,
  sessionIds: fc.Arbitrary<string>,
  files: UploadFiles,
  /** The hosted page session its capture form is sent to, and that page's form token. */
  page: { sessionId: string; formToken: string },
): fc.Arbitrary<FuzzRequest> {
  const data = fc.oneof(
    { weight: 4, arbitrary: fc.constantFrom(files.image, files.pdf) },
    { weight: 1, arbitrary: fc.uint8Array({ maxLength: 2_000 }).map((bytes) => Buffer.from(bytes)) },
    { weight: 1, arbitrary: fc.constantFrom(...files.activePdfs) },
    {
      weight: 1,
      arbitrary: fc.constantFrom(
        files.smallImage,
        Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
        Buffer.alloc(0),
        files.image.subarray(0, files.image.length - 12),
      ),
    },
  );
  const text = hostileStrings.filter((value) => value.length < 200 && !/[\r\n"]/.test(value));
  const kind = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.constantFrom(
        'id_document_front',
        'id_document_back',
        'selfie',
        'certificate_of_incorporation',
        'cr12',
        'kra_pin_certificate',
        'director_id',
      ),
    },
    { weight: 1, arbitrary: text },
  );
  const file: fc.Arbitrary<FormPart> = fc.record({
    field: fc.oneof({ weight: 6, arbitrary: fc.constant('file') }, { weight: 1, arbitrary: text }),
    filename: fc.oneof(fc.constantFrom('id.png', 'certificate.pdf', '../../etc/passwd'), text),
    contentType: fc.constantFrom('image/png', 'image/jpeg', 'application/pdf', 'application/octet-stream'),
    data,
  });
  const parts = fc.oneof(
    {
      weight: 6,
      arbitrary: fc.tuple(kind, file).map(([value, one]): FormPart[] => [{ field: 'kind', data: value }, one]),
    },
    {
      weight: 1,
      arbitrary: fc.array(
        fc.oneof(
          file,
          kind.map((value): FormPart => ({ field: 'kind', data: value })),
        ),
        {
          maxLength: 4,
        },
      ),
    },
  );
  const api = fc
    .tuple(parts, credentials, sessionIds, fc.boolean())
    .map(([formParts, who, sessionId, brokenBoundary]) => ({
      route: API_ROUTE,
      url: `/v1/verify/sessions/${sessionId}/documents`,
      headers: who,
      formParts,
      brokenBoundary,
    }));
  // The hosted page's capture form: its token (mostly the right one), the typed details, and files named by kind.
  const pageFile = fc
    .tuple(kind, file)
    .map(([field, one]): FormPart => ({ ...one, field: one.field === 'file' ? field : one.field }));
  const pageFields = fc.record({
    token: fc.oneof({ weight: 3, arbitrary: fc.constant(page.formToken) }, { weight: 1, arbitrary: text }),
    idType: fc.constantFrom('national_id', 'passport', 'alien_id', 'driving_licence'),
    idNumber: fc.oneof(fc.constantFrom('27183945', 'AK1234567'), text),
    lang: fc.constantFrom('en', 'sw', 'fr'),
  });
  const hosted = fc
    .tuple(pageFields, fc.array(pageFile, { maxLength: 4 }), fc.boolean())
    .map(([fields, files, brokenBoundary]) => ({
      route: PAGE_ROUTE,
      url: `/session/${page.sessionId}/documents`,
      headers: {},
      formParts: [...Object.entries(fields).map(([field, data]): FormPart => ({ field, data })), ...files],
      brokenBoundary,
    }));
  return fc
    .oneof({ weight: 3, arbitrary: api }, { weight: 1, arbitrary: hosted })
    .map(({ route, url, headers: who, formParts, brokenBoundary }) => {
      const { payload, headers } = multipart(formParts);
      return {
        route,
        method: 'POST',
        url,
        headers: {
          ...who,
          'content-type': brokenBoundary ? 'multipart/form-data; boundary=not-the-one-used' : headers['content-type'],
        },
        payload,
      };
    });
}
