export { type BackendApiDeps, type BackendApp, buildApp, SERVICE_VERSION } from './app.js';
export { type BackendApiConfig, BackendApiEnvSchema, loadBackendApiConfig } from './config.js';
export { type CreditWalletInput, type CreditWalletResult, creditWallet } from './modules/wallet/index.js';
export { API_KEY_HEADER, type ApiKeyPrincipal } from './plugins/api-key-authentication.js';
