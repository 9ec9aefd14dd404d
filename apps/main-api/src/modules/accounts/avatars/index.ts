// What the app uses of the avatars sub-module.

export { avatarRoutes } from './routes.js';
export { AvatarUploadResponseSchema } from './schemas.js';
