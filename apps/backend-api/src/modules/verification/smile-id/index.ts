// What the app uses of the smile_id decision source (docs/decisions.md#automated-decisions): its settings, the source
// itself (what submissions tell it, its job loop) and its callback route.

export { createSmileIdDecisions } from './decision-source.js';
export { smileIdRoutes } from './routes.js';
export { smileIdSettingsOf } from './settings.js';
