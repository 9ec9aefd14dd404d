import { singleLineName } from '@platform/http';
import { nextCursorSchema, pageQueryProperties } from '@platform/pagination';
import { type Static, Type } from '@sinclair/typebox';

const DEFAULT_PAGE_SIZE = 50;

const DriveFolderSchema = Type.Object(
  {
    id: Type.String({ format: 'uuid', description: 'Folder identifier.' }),
    name: Type.String({ description: 'The folder name, trimmed.' }),
    parentId: Type.Union([Type.String({ format: 'uuid' }), Type.Null()], {
      description: 'The folder it is in; null for a top-level folder.',
    }),
    createdAt: Type.String({ format: 'date-time', description: 'ISO 8601 timestamp in UTC.' }),
  },
  { $id: 'DriveFolder', additionalProperties: false },
);
export type DriveFolderView = Static<typeof DriveFolderSchema>;

export const CreateDriveFolderBody = Type.Object(
  {
    name: singleLineName({
      description:
        'Folder name: 1-255 characters once leading and trailing spaces are trimmed, on one line, without "/". ' +
        'Unique among the folders of the same parent, ignoring case.',
    }),
    // One schema with a type list rather than anyOf, so a bad value gets a precise message.
    parentId: Type.Optional(
      Type.Unsafe<string | null>({
        type: ['string', 'null'],
        format: 'uuid',
        description:
          'Create the folder inside this folder (of the same organization and environment). Omit or null for a ' +
          'top-level folder.',
      }),
    ),
  },
  { $id: 'CreateDriveFolder' },
);

export const DriveFolderCreatedSchema = Type.Object(
  { success: Type.Literal(true), message: Type.String(), data: DriveFolderSchema },
  { $id: 'DriveFolderCreated', additionalProperties: false },
);

export const ListDriveFoldersQuery = Type.Object({
  parentId: Type.Optional(
    Type.Union([Type.String({ format: 'uuid' }), Type.Literal('root')], {
      description:
        'Only the folders directly inside this folder; `root` for the top-level folders. Omit for all folders.',
    }),
  ),
  ...pageQueryProperties(DEFAULT_PAGE_SIZE),
});

export const DriveFolderListSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      folders: Type.Array(DriveFolderSchema, { description: 'Newest first.' }),
      nextCursor: nextCursorSchema(),
    }),
  },
  { $id: 'DriveFolderList', additionalProperties: false },
);

export const DriveFolderIdParams = Type.Object({
  id: Type.String({ format: 'uuid', description: 'Folder identifier.' }),
});

export const DriveFolderDeletedSchema = Type.Object(
  {
    success: Type.Literal(true),
    message: Type.String(),
    data: Type.Object({ id: Type.String({ format: 'uuid' }) }, { additionalProperties: false }),
  },
  { $id: 'DriveFolderDeleted', additionalProperties: false },
);
