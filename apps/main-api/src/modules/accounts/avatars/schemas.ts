import { Type } from '@sinclair/typebox';

export const AvatarUploadResponseSchema = Type.Object(
  {
    success: Type.Literal(true),
    data: Type.Object({
      url: Type.String({
        description: 'Public URL of the stored image; send it as avatarUrl to PATCH /v1/accounts/me.',
      }),
    }),
  },
  { $id: 'AvatarUploadResponse' },
);

export const AvatarFileParams = Type.Object({
  '*': Type.String({ description: 'Storage key of the avatar, as found in its URL.' }),
});
