// What the rest of backend-api uses of the drive module: its routes and the quotas configuration sets.
export type { FolderQuotas } from './quota.js';
export { driveRoutes } from './routes.js';
