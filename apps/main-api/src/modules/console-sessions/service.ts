import type { Database, DatabaseExecutor } from '@platform/db';
import {
  sessionSecretHash as hashOf,
  isSessionSecret,
  newSessionSecret,
  sessionEnd,
} from '../../shared/session-secrets.js';
import { type AuditContext, recordAuditEvent } from '../audit/index.js';
import {
  deleteConsoleSession,
  deleteConsoleSessionsOf,
  deleteExpiredConsoleSessions,
  findConsoleSessionUser,
  insertConsoleSession,
} from './repository.js';

// The review console's sessions, kept on the server (docs/decisions.md#console-sessions): the browser holds a random
// secret, this service the SHA-256 of it, the user and when it ends. A session is ended by deleting its row, so
// sign-out, the reviewer role taken away and an operator ending a user's sessions take effect at the next request,
// on every instance.

/** How long a console session lasts at most after sign-in. */
export const CONSOLE_SESSION_MS = 8 * 60 * 60 * 1000;
/** How many of the ends are still to come at `now`: the sessions that were open. */
const openAt = (ends: Date[], now: Date) => ends.filter((end) => end.getTime() > now.getTime()).length;

/** The console's sessions, as the console's routes use them. */
export interface ConsoleSessionStore {
  /**
   * Opens a session for the user, ending eight hours from `now` or when the access token it is opened with expires,
   * whichever is first; its secret is for the cookie alone. Null when the token has (all but) expired already.
   */
  open(input: { userId: string; tokenExpiresAt: Date; now: Date }): Promise<{ secret: string; expiresAt: Date } | null>;
  /** The user of the session whose secret this is, while it lasts; null for anything else. */
  userOf(secret: string, now: Date): Promise<string | null>;
  /** Ends the session whose secret this is (sign-out); nothing for an unknown one. */
  end(secret: string): Promise<void>;
  /** Ends every session of the user; how many were open. */
  endAllOf(userId: string, now: Date): Promise<number>;
}

export function consoleSessionStoreOf(db: Database): ConsoleSessionStore {
  return {
    async open({ userId, tokenExpiresAt, now }) {
      const expiresAt = sessionEnd(now, CONSOLE_SESSION_MS, tokenExpiresAt);
      if (expiresAt === null) return null;
      const secret = newSessionSecret();
      await db.transaction(async (tx) => {
        await deleteExpiredConsoleSessions(tx, now);
        await insertConsoleSession(tx, { secretHash: hashOf(secret), userId, createdAt: now, expiresAt });
      });
      return { secret, expiresAt };
    },
    async userOf(secret, now) {
      if (!isSessionSecret(secret)) return null;
      return (await findConsoleSessionUser(db, hashOf(secret), now)) ?? null;
    },
    async end(secret) {
      if (isSessionSecret(secret)) await deleteConsoleSession(db, hashOf(secret));
    },
    endAllOf: async (userId, now) => openAt(await deleteConsoleSessionsOf(db, userId), now),
  };
}

/**
 * Ends every console session of a user in the caller's transaction: when the role that opens the console is taken
 * away, so that giving it back later does not bring an old session (a cookie left on another machine) back to life.
 */
export async function endConsoleSessionsInTransaction(tx: DatabaseExecutor, userId: string): Promise<void> {
  await deleteConsoleSessionsOf(tx, userId);
}

/**
 * An operator of the platform organization ends every console session of a user (a lost laptop, a departure): with
 * an audit record in the platform organization's log when there was one to end. How many were open.
 */
export async function endConsoleSessionsOf(
  db: Database,
  audit: AuditContext,
  input: { platformOrganizationId: string; userId: string; now: Date },
): Promise<number> {
  return db.transaction(async (tx) => {
    const ended = openAt(await deleteConsoleSessionsOf(tx, input.userId), input.now);
    if (ended > 0) {
      await recordAuditEvent(tx, audit, {
        organizationId: input.platformOrganizationId,
        action: 'review_console.sessions_ended',
        targetType: 'user',
        targetId: input.userId,
        details: { ended },
      });
    }
    return ended;
  });
}
