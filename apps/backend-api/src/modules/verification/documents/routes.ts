import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiKeyOwner, Database } from '@platform/db';
import { DEFAULT_DOCUMENT_FILE_LIMITS } from '@platform/document-checks';
import type { DocumentVault } from '@platform/document-vault';
import { AppError, badRequest, isAppError, validationError } from '@platform/errors';
import { errorResponses } from '@platform/http';
import type { VerificationRetentionBounds } from '@platform/organizations';
import type { SessionDecision } from '@platform/verification-lifecycle';
import type { FastifyRequest } from 'fastify';
import { noSubmissionListener, type SubmissionListener } from '../decisions/index.js';
import { sessionView, VerificationSessionResponseSchema } from '../index.js';
import { type RetentionSchedule, startDocumentRetention } from './retention.js';
import {
  SessionDocumentsParams,
  SubmitVerificationSessionBody,
  VerificationDocumentCreatedSchema,
  VerificationDocumentListSchema,
  type VerificationDocumentView,
} from './schemas.js';
import {
  captureDocument,
  erasePersonalData,
  listDocuments,
  type SubmissionOptions,
  sessionTakingDocuments,
  submitSession,
} from './service.js';

export interface DocumentRoutesOptions extends SubmissionOptions {
  db: Database;
  now: () => Date;
  vault: DocumentVault;
  /** Where the hosted page is served, without a trailing slash (the session's verificationUrl). */
  verifyUrl: string;
  /** The platform's default retention and its bounds: the days after a final status until the retention job erases. */
  retention: VerificationRetentionBounds;
  /** How often this instance runs the retention job; 0: never here. */
  retentionIntervalMs: number;
}

const tags = ['verification'];
const security = [{ apiKey: [] }];
const MAX_FILE_BYTES = DEFAULT_DOCUMENT_FILE_LIMITS.maxBytes;
/** The file, the kind and the multipart framing: the only route whose body may pass the service's body limit. */
const UPLOAD_BODY_LIMIT = MAX_FILE_BYTES + 64 * 1024;

/**
 * Capture by API (docs/decisions.md#capture-by-api): a customer that captures in its own app sends the session's
 * documents and details here instead of the hosted page, and erases them on request
 * (docs/decisions.md#personal-data-erasure). Only the key's organization and environment; the session id in the URL
 * is logged by its pattern, like the other session routes.
 */
export const documentRoutes: FastifyPluginAsyncTypebox<DocumentRoutesOptions> = async (app, options) => {
  const { db, now, vault, verifyUrl } = options;
  const submissions: SubmissionListener = options.submissions ?? noSubmissionListener;
  const submission: SubmissionOptions = { platformOrganizationId: options.platformOrganizationId, submissions };
  const ownerOf = (request: { apiKey: ApiKeyOwner }): ApiKeyOwner => ({
    organizationId: request.apiKey.organizationId,
    environment: request.apiKey.environment,
  });
  // Multipart is only needed here, so it stays inside this plugin: one `kind`, one `file`, nothing else.
  await app.register(multipart, {
    limits: { fileSize: MAX_FILE_BYTES, files: 2, fields: 2, fieldSize: 256, parts: 4 },
  });

  app.post(
    '/v1/verify/sessions/:id/documents',
    {
      bodyLimit: UPLOAD_BODY_LIMIT,
      // The file goes to the document store before its row is written, so the answer is kept once sent. The
      // fingerprint of a retry covers the session, not the file (the body is read after the key is claimed).
      config: { idempotency: 'response', urlCarriesSecret: true },
      schema: {
        tags,
        summary: 'Upload a document of a verification session',
        description:
          'multipart/form-data with a `kind` field and one `file`. kyc sessions take images (JPEG, PNG, WebP, the ' +
          'shorter side at least 600 px); kyb sessions images or PDFs (at most 20 pages). At most 10 MiB, checked by ' +
          'content; images are stored re-encoded without metadata. Only `pending` and `requires_input` sessions ' +
          'take documents. A newer document of a kind replaces the earlier one, except `director_id` (one per ' +
          'director). While a `requires_input` session has `resubmitDocuments`, only those kinds are taken (any ' +
          'other: 409 `conflict` naming them, nothing stored) and the first document of each sent since the ' +
          'decision replaces every earlier one of its kind, `director_id` included (later ones add up again). ' +
          'Wrong type 415, too large 413, too small or damaged 400 naming `file`, unknown kind 400 naming `kind`.',
        consumes: ['multipart/form-data'],
        security,
        params: SessionDocumentsParams,
        response: {
          201: VerificationDocumentCreatedSchema,
          ...errorResponses(400, 401, 404, 409, 413, 415, 422),
        },
      },
    },
    async (request, reply) => {
      if (!request.isMultipart()) {
        throw new AppError(
          'unsupported_media_type',
          'Send the document as multipart/form-data with the fields "kind" and "file"',
        );
      }
      // An unknown, another owner's or a closed session is refused before the file is received.
      const session = await sessionTakingDocuments(db, { sessionId: request.params.id, owner: ownerOf(request) });
      const { kind, bytes } = await readDocumentParts(request);
      const document = await captureDocument(db, vault, { session, kind, bytes, now: now() });
      return reply.code(201).send({ success: true as const, data: documentView(document) });
    },
  );

  app.get(
    '/v1/verify/sessions/:id/documents',
    {
      config: { urlCarriesSecret: true },
      schema: {
        tags,
        summary: "List a verification session's documents",
        description:
          'The documents that count (not replaced by a newer one, not erased), oldest first: metadata only, never ' +
          'their content.',
        security,
        params: SessionDocumentsParams,
        response: { 200: VerificationDocumentListSchema, ...errorResponses(400, 401, 404) },
      },
    },
    async (request) => {
      const documents = await listDocuments(db, { sessionId: request.params.id, owner: ownerOf(request) });
      return { success: true as const, data: { documents: documents.map(documentView) } };
    },
  );

  app.post(
    '/v1/verify/sessions/:id/submit',
    {
      config: { idempotency: 'transaction', urlCarriesSecret: true },
      schema: {
        tags,
        summary: 'Submit a verification session for a decision',
        description:
          'kyc: `{idType, idNumber}` with `id_document_front`, `selfie` and, unless a passport, `id_document_back` ' +
          'uploaded; kyb: `{registrationNumber, companyName?}` with every document of `requiredDocuments`. Moves ' +
          'the session to `processing`. In `requires_input` the details may be left out (all of them): those of ' +
          'the previous submission are kept; details sent are checked and replace them. With `resubmitDocuments`, ' +
          'each of those kinds must have been uploaded again since the decision (`/documents/<kind>`: `must be ' +
          'sent again`). Anything missing or invalid: 400 `validation_error` listing each item in `details` ' +
          '(`/idNumber`, `/documents/selfie`, ...). Only `pending` and `requires_input` sessions: 409. ' +
          '**Test values** (test sessions the sandbox decides, never live): kyc with `idType` `national_id` and ' +
          '`idNumber` `00000001` is verified, `00000002` rejected, `00000003` asked for the selfie again ' +
          '(`requires_input`), `00000004` left in `processing` for review; kyb with `registrationNumber` ' +
          '`PVT-00000001` is verified, `PVT-00000004` left for review. Each gets the `checks` a live session gets ' +
          '(`source: "test"`), decided by the same policy, at once.',
        security,
        params: SessionDocumentsParams,
        body: SubmitVerificationSessionBody,
        response: { 200: VerificationSessionResponseSchema, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request) => {
      let decision: SessionDecision | undefined;
      const answer = await request.idempotency.transaction(db, async (tx) => {
        const submitted = await submitSession(
          tx,
          vault,
          {
            sessionId: request.params.id,
            owner: ownerOf(request),
            input: request.body,
            actor: `api_key:${request.apiKey.id}`,
            now: now(),
          },
          submission,
        );
        decision = submitted.decision;
        return { statusCode: 200, body: { success: true as const, data: sessionView(submitted.session, verifyUrl) } };
      });
      // Committed: an automated decision source starts its job now, outside the transaction; a test ID number's
      // decision reaches the metrics.
      submissions.committed();
      if (decision !== undefined) options.onDecided?.(decision);
      return answer;
    },
  );

  app.delete(
    '/v1/verify/sessions/:id/personal-data',
    {
      // The files are deleted from the document store, outside any transaction; erasing again is harmless.
      config: { idempotency: 'response', urlCarriesSecret: true },
      schema: {
        tags,
        summary: "Erase a verification session's personal data",
        description:
          'Deletes the documents and submitted details of a final session (verified, rejected, expired, canceled), ' +
          "for a data subject who asks, and the IP address and user agent the person's consent was given from (its " +
          'time, text version and language stay as evidence). The session, its status and its money history stay; ' +
          '`personalDataErasedAt` says when. Repeating it answers the same. A session still open: 409 (cancel it ' +
          'first, or wait for the decision of a processing one).',
        security,
        params: SessionDocumentsParams,
        response: { 200: VerificationSessionResponseSchema, ...errorResponses(400, 401, 404, 409, 422) },
      },
    },
    async (request) => {
      const session = await erasePersonalData(db, vault, {
        sessionId: request.params.id,
        owner: ownerOf(request),
        now: now(),
      });
      return { success: true as const, data: sessionView(session, verifyUrl) };
    },
  );

  if (options.retentionIntervalMs > 0) {
    let schedule: RetentionSchedule | undefined;
    app.addHook('onReady', async () => {
      schedule = startDocumentRetention({
        db,
        vault,
        now,
        intervalMs: options.retentionIntervalMs,
        retention: options.retention,
        logger: app.log,
      });
    });
    app.addHook('onClose', async () => {
      await schedule?.stop();
    });
  }
};

function documentView(document: {
  id: string;
  kind: VerificationDocumentView['kind'];
  contentType: VerificationDocumentView['contentType'];
  sizeBytes: number;
  createdAt: Date;
}): VerificationDocumentView {
  return {
    id: document.id,
    kind: document.kind,
    contentType: document.contentType,
    size: document.sizeBytes,
    createdAt: document.createdAt.toISOString(),
  };
}

/**
 * The `kind` and the one `file` of an upload. Every part is read, so nothing is silently dropped: a second file is
 * a 413 (one document per upload), any other part, or `kind` sent twice or as a file, a 400 naming it.
 */
async function readDocumentParts(request: FastifyRequest): Promise<{ kind: string | undefined; bytes: Buffer }> {
  let kind: string | undefined;
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      const field = part.fieldname.slice(0, 100);
      if (part.fieldname === 'kind' && part.type === 'field' && kind === undefined) {
        kind = String(part.value);
        continue;
      }
      if (part.fieldname === 'file' && part.type === 'file') {
        if (bytes !== undefined) {
          part.file.resume();
          throw new AppError('payload_too_large', 'Send one document per upload: the request has more than one file');
        }
        bytes = await part.toBuffer();
        // toBuffer() does not always throw when the file was cut at the limit.
        if (part.file.truncated) throw fileTooLarge();
        continue;
      }
      if (part.type === 'file') part.file.resume();
      throw validationError(`Unexpected multipart field "${field}": send only "kind" and one "file"`, [
        { path: `/${field}`, message: part.fieldname === 'kind' ? 'must be sent once, as text' : 'is not allowed' },
      ]);
    }
  } catch (error) {
    throw asUploadError(error);
  }
  if (bytes === undefined) {
    throw validationError('Send the document in a multipart file field named "file"', [
      { path: '/file', message: 'is required' },
    ]);
  }
  return { kind, bytes };
}

function fileTooLarge(): AppError {
  return new AppError('payload_too_large', `A document must be at most ${MAX_FILE_BYTES} bytes (10 MiB)`);
}

// @fastify/multipart's own errors carry a status; the parser's (busboy) do not, and mean a malformed body.
function asUploadError(error: unknown): unknown {
  const { code, statusCode } = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  if (code === 'FST_REQ_FILE_TOO_LARGE') return fileTooLarge();
  if (isAppError(error) || typeof statusCode === 'number') return error;
  return badRequest('The multipart/form-data body is malformed');
}
