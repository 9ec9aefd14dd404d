// What the smile_id decision source and the hosted page use of the directors' own verifications
// (docs/decisions.md#directors).

export { addDirectorSessions } from './director-sessions.js';
export { settleDirectors } from './settle.js';
