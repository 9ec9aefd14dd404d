// What the app uses of the smile_id decision source (docs/decisions.md#automated-decisions): its settings, the source
// itself (what submissions tell it, its job loop) and its callback route.

export { createSmileIdDecisions, type SmileIdDecisions } from './decision-source.js';
export { smileIdRoutes } from './routes.js';
export { SMILE_ID_CALLBACK_PATH, smileIdSettingsOf } from './settings.js';
