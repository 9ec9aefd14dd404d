// What the rest of main-api (the app, the avatars sub-module, billing, organizations, invitations, reviews) uses of
// the accounts module: the routes, whether a user has a record, a user's email address (the payer's, for the payment
// providers) and profile, several users' profiles (the reviewers a review's history names), and the same as
// fragments other statements embed.

export {
  findUserEmail,
  findUserIdByAddress,
  findUserProfile,
  findUserProfiles,
  userEmailOf,
  userProfileOf,
} from './repository.js';
export { accountRoutes } from './routes.js';
export { accountSharedSchemas } from './schemas.js';
export {
  createProfile,
  type EditableProfile,
  getEditableProfile,
  getProfile,
  updateProfile,
  userExists,
} from './service.js';
