import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { errorResponses } from '@platform/http';
import { Type } from '@sinclair/typebox';
import { requireKeyPermission } from '../../../plugins/api-key-authentication.js';
import { ExportKeySetSchema, SessionExportParams } from './schemas.js';
import { exportSession } from './service.js';
import type { ExportSigningKeys } from './signing-keys.js';

export interface ExportRoutesOptions {
  db: Database;
  now: () => Date;
  vault: DocumentVault;
  signing: ExportSigningKeys;
}

const tags = ['verification'];

/**
 * Export before erasure (docs/decisions.md#verification-export): a final session's records as a signed ZIP, and
 * the public keys that verify its manifest. The archive's contents are never logged.
 */
export const exportRoutes: FastifyPluginAsyncTypebox<ExportRoutesOptions> = async (
  app,
  { db, now, vault, signing },
) => {
  app.get(
    '/v1/verify/sessions/:id/export',
    {
      config: { urlCarriesSecret: true },
      schema: {
        tags,
        summary: "Export a final session's records as a signed ZIP",
        description:
          'The documents (decrypted), details.json, verified.json (when verified), checks.json, history.json, ' +
          'consent.json, documents.json, manifest.json (every file with its SHA-256 and size, the session, its ' +
          'decision, checks and consent, the export time) and manifest.sig (an Ed25519 signature of manifest.json, ' +
          'verified with GET /v1/verify/export-keys). Only verified, rejected, expired or canceled sessions whose ' +
          "personal data is still kept (409 otherwise); needs the key's verified_data:read permission (403). " +
          'Recorded in the audit log (verification.exported).',
        security: [{ apiKey: [] }],
        params: SessionExportParams,
        produces: ['application/zip'],
        response: {
          200: Type.Unsafe<Uint8Array>({
            type: 'string',
            format: 'binary',
            description: 'application/zip: the archive.',
            examples: ['PK\u0003\u0004...'],
          }),
          ...errorResponses(400, 401, 403, 404, 409),
        },
      },
    },
    async (request, reply) => {
      const { apiKey } = request;
      requireKeyPermission(apiKey, 'verified_data:read', 'The export');
      const archive = await exportSession(db, vault, {
        sessionId: request.params.id,
        owner: { organizationId: apiKey.organizationId, environment: apiKey.environment },
        key: signing.current,
        now: now(),
        audit: { apiKeyId: apiKey.id, requestId: request.id, ip: request.ip },
      });
      request.log.info({ keyId: archive.kid }, 'Verification session exported');
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', `attachment; filename="verification-${request.params.id}.zip"`)
        .header('cache-control', 'no-store')
        .send(Buffer.from(archive.zip));
    },
  );

  app.get(
    '/v1/verify/export-keys',
    {
      config: { public: true },
      schema: {
        tags,
        summary: 'The public keys that verify export manifests (JWKS)',
        description:
          'Ed25519 keys as a JSON Web Key Set; an archive names the kid that signed it in manifest.json. Public: ' +
          'a business verifies an archive with no key of its own.',
        response: { 200: ExportKeySetSchema },
      },
    },
    async () => signing.jwks,
  );
};
