// What the app and the dashboard's Developers pages use of the allowed-origins module.

export { allowedOriginRoutes } from './routes.js';
export { allowedOriginSharedSchemas } from './schemas.js';
export { listAllowedOrigins, setAllowedOrigins } from './service.js';
