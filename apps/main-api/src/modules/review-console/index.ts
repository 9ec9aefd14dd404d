// The reviewer console: server-rendered pages for the platform's reviewers over the review service.

export { reviewConsoleRoutes } from './routes.js';
