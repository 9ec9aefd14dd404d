import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { ApiKeyOwner, Database } from '@platform/db';
import { errorResponses } from '@platform/http';
import { normaliseFolderName } from './folder-name.js';
import type { FolderQuotas } from './quota.js';
import {
  CreateDriveFolderBody,
  DriveFolderCreatedSchema,
  DriveFolderDeletedSchema,
  DriveFolderIdParams,
  DriveFolderListSchema,
  ListDriveFoldersQuery,
} from './schemas.js';
import { createFolder, deleteFolder, listFolders } from './service.js';

export interface DriveRoutesOptions {
  db: Database;
  now: () => Date;
  quotas: FolderQuotas;
}

const tags = ['drive'];
const security = [{ apiKey: [] }];

/**
 * Drive folders (spec 4.10, docs/decisions.md#drive-folders): one tree per organization and environment of the
 * API key.
 */
export const driveRoutes: FastifyPluginAsyncTypebox<DriveRoutesOptions> = async (app, { db, now, quotas }) => {
  const ownerOf = (request: { apiKey: ApiKeyOwner }): ApiKeyOwner => ({
    organizationId: request.apiKey.organizationId,
    environment: request.apiKey.environment,
  });

  app.post(
    '/v1/drive/folders',
    {
      config: { idempotency: 'transaction' },
      schema: {
        tags,
        summary: 'Create a folder',
        description:
          'Creates a folder at the top level or inside `parentId`. Names are unique among the folders of one ' +
          'parent, ignoring case (409). The number of folders per organization and environment is limited by the ' +
          "organization's mail plan: none 10, core 100, growth 1,000, scale 10,000 (403 quota_exceeded).",
        security,
        body: CreateDriveFolderBody,
        response: { 201: DriveFolderCreatedSchema, ...errorResponses(401, 403, 404, 409, 422) },
      },
    },
    async (request) => {
      const name = normaliseFolderName(request.body.name);
      const parentId = request.body.parentId ?? null;
      const input = { name, parentId, now: now(), quotas };
      return request.idempotency.unitOfWork(db, async (work) => {
        const folder = await createFolder(work, ownerOf(request), input);
        return { statusCode: 201, body: { success: true as const, message: 'Folder created', data: folder } };
      });
    },
  );

  app.get(
    '/v1/drive/folders',
    {
      schema: {
        tags,
        summary: 'List folders',
        description: 'Newest first, a page at a time. Filter with `parentId` (a folder id, or `root`).',
        security,
        querystring: ListDriveFoldersQuery,
        response: { 200: DriveFolderListSchema, ...errorResponses(401, 404) },
      },
    },
    async (request) => {
      const { parentId, limit, cursor } = request.query;
      const page = await listFolders(db, ownerOf(request), { parentId, limit, cursor });
      return { success: true as const, data: page };
    },
  );

  app.delete(
    '/v1/drive/folders/:id',
    {
      config: { idempotency: 'transaction' },
      schema: {
        tags,
        summary: 'Delete an empty folder',
        description: 'A folder with folders inside cannot be deleted (409). Unknown ids give 404.',
        security,
        params: DriveFolderIdParams,
        response: { 200: DriveFolderDeletedSchema, ...errorResponses(401, 404, 409, 422) },
      },
    },
    async (request) => {
      const { id } = request.params;
      return request.idempotency.transaction(db, async (tx) => {
        await deleteFolder(tx, ownerOf(request), id);
        return { statusCode: 200, body: { success: true as const, message: 'Folder deleted', data: { id } } };
      });
    },
  );
};
