// What the app uses of the hosted verification page: its routes.
export { hostedPageRoutes } from './routes.js';
