// Export before erasure (docs/decisions.md#verification-export): what the app registers.

export { exportRoutes } from './routes.js';
export { exportSigningKeysOf } from './signing-keys.js';
