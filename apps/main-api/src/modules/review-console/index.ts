// The reviewer console: server-rendered pages for the platform's reviewers over the review service.

export { reviewDeskOf } from './review-desk.js';
export { reviewConsoleRoutes } from './routes.js';
