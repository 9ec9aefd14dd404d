export { API_KEY_NAME_MAX_LENGTH, DEFAULT_API_KEY_NAME, normaliseApiKeyName } from './name.js';
export { countActiveApiKeys, listActiveApiKeys } from './repository.js';
export { apiKeyEnvironmentOf, type GeneratedApiKey, generateApiKey, hashApiKeySecret } from './secret.js';
export {
  type ActiveApiKey,
  type CreateApiKeyInput,
  type CreatedApiKey,
  createApiKey,
  findActiveApiKey,
  revokeApiKey,
  revokeOrganizationApiKeys,
  touchApiKey,
  touchApiKeys,
} from './service.js';
