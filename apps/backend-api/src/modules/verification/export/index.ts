// Export before erasure (docs/decisions.md#verification-export): what the app registers.

export { exportRoutes } from './routes.js';
export { exportSigningKeysOf, isEd25519PrivateKeyPem } from './signing-keys.js';
