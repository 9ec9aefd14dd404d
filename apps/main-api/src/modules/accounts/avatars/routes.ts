import multipart from '@fastify/multipart';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import type { Database } from '@platform/db';
import { AppError, badRequest, isAppError, notFound, validationError } from '@platform/errors';
import { errorResponses } from '@platform/http';
import type { FastifyRequest } from 'fastify';
import { bearerSecurity } from '../../../shared/route-schemas.js';
import { ref } from '../../../shared/schema-ref.js';
import { LOCAL_FILES_ROUTE_PREFIX } from '../../../storage/local-folder.js';
import type { ObjectStorage, StoredObject } from '../../../storage/object-storage.js';
import { AvatarFileParams, AvatarUploadResponseSchema } from './schemas.js';
import { AVATAR_MAX_PIXELS, assertCanUploadAvatar, isAvatarKey, storeAvatar } from './service.js';

export interface AvatarRoutesOptions {
  db: Database;
  storage: ObjectStorage;
  /** Largest accepted image, in bytes (AVATAR_MAX_BYTES). */
  maxBytes: number;
}

/** Form fields the image may be sent in; `file` is documented, `avatar` is accepted too. */
const FILE_FIELDS = new Set(['file', 'avatar']);

export const avatarRoutes: FastifyPluginAsyncTypebox<AvatarRoutesOptions> = async (app, { db, storage, maxBytes }) => {
  const tags = ['avatars'];
  // Multipart is only needed here, so it stays inside this plugin. One file part and nothing else is accepted.
  await app.register(multipart, { limits: { fileSize: maxBytes, files: 2, fields: 1, fieldSize: 1024, parts: 3 } });

  app.post(
    '/v1/auth/avatar',
    {
      schema: {
        tags,
        summary: 'Upload a profile photo',
        description:
          `multipart/form-data with one file in the field \`file\` (or \`avatar\`): a PNG, JPEG or WebP image ` +
          `of at most ${maxBytes} bytes and ${AVATAR_MAX_PIXELS} pixels, recognised by its content. A copy ` +
          'encoded again in the same format, without metadata (no EXIF, GPS position, comments or text), is stored; ' +
          'an image that is also another kind of file, or damaged, is 400. Returns the public URL of that copy, which ' +
          'the user can then set as avatarUrl with PATCH /v1/accounts/me.',
        consumes: ['multipart/form-data'],
        security: bearerSecurity,
        response: { 201: ref(AvatarUploadResponseSchema), ...errorResponses(400, 401, 404, 413, 415) },
      },
    },
    async (request, reply) => {
      const userId = request.user.id;
      if (!request.isMultipart()) {
        throw new AppError('unsupported_media_type', 'Send the avatar as multipart/form-data in a field named "file"');
      }
      // A user without a record is refused before the file is received.
      await assertCanUploadAvatar(db, userId);

      const bytes = await readImageField(request, maxBytes);
      const { url } = await storeAvatar(db, storage, { userId, bytes, maxBytes });
      return reply.code(201).send({ success: true as const, data: { url } });
    },
  );

  // Only adapters that keep files where clients cannot reach them (the local folder) need this route.
  const read = storage.read?.bind(storage);
  if (read !== undefined) {
    app.get(
      `${LOCAL_FILES_ROUTE_PREFIX}*`,
      {
        // Not rate limited, like a CDN: a page may show many avatars at once.
        config: { public: true, rateLimit: false },
        schema: {
          tags,
          summary: 'Fetch a stored profile photo',
          description: 'Serves the images of the local avatar storage. Public, like any CDN URL.',
          params: AvatarFileParams,
          response: errorResponses(404),
        },
      },
      async (request, reply) => {
        const key = request.params['*'];
        const object: StoredObject | null = isAvatarKey(key) ? await read(key) : null;
        if (object === null) throw notFound('Avatar not found');
        return (
          reply
            .type(object.contentType)
            .header('content-length', object.sizeBytes)
            .header('cache-control', 'public, max-age=31536000, immutable')
            // Front ends on other origins display these images.
            .header('cross-origin-resource-policy', 'cross-origin')
            .send(object.body)
        );
      },
    );
  }
};

/**
 * The bytes of the one image the request carries. Every part is read, so nothing is silently dropped: a second
 * file is a 413 (one file per upload, like the size limit), and a field under any other name, file or text, a
 * 400 naming it.
 */
async function readImageField(request: FastifyRequest, maxBytes: number): Promise<Buffer> {
  let bytes: Buffer | undefined;
  try {
    for await (const part of request.parts()) {
      if (!FILE_FIELDS.has(part.fieldname)) {
        if (part.type === 'file') part.file.resume();
        throw validationError(
          `Unexpected multipart field "${part.fieldname.slice(0, 100)}": send the image in a field named "file"`,
          [{ path: `/${part.fieldname.slice(0, 100)}`, message: 'is not allowed' }],
        );
      }
      if (part.type !== 'file') {
        throw validationError(`The field "${part.fieldname}" must be a file`, [
          { path: `/${part.fieldname}`, message: 'must be a file' },
        ]);
      }
      if (bytes !== undefined) {
        part.file.resume();
        throw new AppError('payload_too_large', 'Send one image per upload: the request has more than one file');
      }
      bytes = await part.toBuffer();
      // toBuffer() does not always throw when the file was cut at the limit (it depends on how the bytes
      // arrived), and a cut image can still look like one.
      if (part.file.truncated) throw new AppError('payload_too_large', `The avatar must be at most ${maxBytes} bytes`);
    }
  } catch (error) {
    throw asUploadError(error, maxBytes);
  }
  if (bytes === undefined) {
    throw validationError('Send the image in a multipart file field named "file"', [
      { path: '/file', message: 'is required' },
    ]);
  }
  if (bytes.length === 0) throw validationError('The avatar file is empty', [{ path: '/file', message: 'is empty' }]);
  return bytes;
}

// @fastify/multipart's own errors carry a status; the parser's (busboy) do not, and mean a malformed body.
function asUploadError(error: unknown, maxBytes: number): unknown {
  const { code, statusCode } = (error ?? {}) as { code?: unknown; statusCode?: unknown };
  if (code === 'FST_REQ_FILE_TOO_LARGE') {
    return new AppError('payload_too_large', `The avatar must be at most ${maxBytes} bytes`);
  }
  if (isAppError(error) || typeof statusCode === 'number') return error;
  return badRequest('The multipart/form-data body is malformed');
}
