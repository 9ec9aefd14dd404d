// The reviewer console: server-rendered pages for the platform's reviewers over the review service.

export type { ReviewDesk } from './desk.js';
export { CONSOLE_PATH } from './pages.js';
export { type ReviewConsoleOptions, reviewConsoleRoutes } from './routes.js';
