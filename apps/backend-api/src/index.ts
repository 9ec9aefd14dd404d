export { buildApp, SERVICE_VERSION, type BackendApiDeps, type BackendApp } from './app.js';
export { BackendApiConfigSchema, loadBackendApiConfig, type BackendApiConfig } from './config.js';
export { API_KEY_HEADER, type ApiKeyPrincipal } from './plugins/api-key-authentication.js';
export { creditWallet, type CreditWalletInput, type CreditWalletResult } from './modules/wallet/credit.js';
