export { apiKeyEnvironmentOf, type GeneratedApiKey, generateApiKey, hashApiKeySecret } from './secret.js';
export {
  type ActiveApiKey,
  type CreateApiKeyInput,
  type CreatedApiKey,
  createApiKey,
  findActiveApiKey,
  revokeApiKey,
  touchApiKey,
  touchApiKeys,
} from './service.js';
