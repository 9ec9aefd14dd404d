// What the app uses of the allowed-origins module.

export { allowedOriginRoutes } from './routes.js';
export { allowedOriginSharedSchemas } from './schemas.js';
