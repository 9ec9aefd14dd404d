// What billing uses of the refunds due: the finance staff's route and its schemas.

export { refundRoutes } from './routes.js';
export { refundSharedSchemas } from './schemas.js';
