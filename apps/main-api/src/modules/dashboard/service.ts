import type { Database } from '@platform/db';
import { isAppError } from '@platform/errors';
import { isSessionSecret, newSessionSecret, sessionEnd, sessionSecretHash } from '../../shared/session-secrets.js';
import { createProfile, findUserIdByAddress, userExists } from '../accounts/index.js';
import type { CompletedSignIn } from './oidc.js';

/**
 * The API's bearer verifier (auth/token-verifier.ts, given by the app), as the dashboard uses it: the user a token
 * proves, its address and its expiry; rejects a token it refuses.
 */
export type VerifyAccessToken = (token: string) => Promise<{ id: string; email?: string; expiresAt: Date }>;

import {
  deleteDashboardSession,
  deleteDashboardSessionsOf,
  deleteExpiredDashboardSessions,
  findDashboardSessionUser,
  insertDashboardSession,
} from './repository.js';

// The dashboard's sessions, kept on the server (docs/decisions.md#dashboard-sign-in): the browser holds a random
// secret, this service the SHA-256 of it, the user and when it ends. A session is ended by deleting its row, so
// sign-out and ending every session of a user take effect at the next request, on every instance.

/** How long a dashboard session lasts at most after sign-in (and never past the tokens it came from). */
export const DASHBOARD_SESSION_MS = 8 * 60 * 60 * 1000;

export interface DashboardSessionStore {
  /**
   * Opens a session for the user, ending at `tokensExpireAt` or after 8 hours; null when that is already past. It
   * keeps the sign-in's ID token, when there is one, for the provider's sign-out.
   */
  open(input: {
    userId: string;
    tokensExpireAt: Date;
    now: Date;
    idToken?: string | undefined;
  }): Promise<{ secret: string; expiresAt: Date } | null>;
  /** The user of the session whose secret this is, while it lasts; null for anything else. */
  userOf(secret: string, now: Date): Promise<string | null>;
  /**
   * Ends the session whose secret this is (sign-out); nothing for an unknown one. The ID token it kept, to send back
   * to the provider as `id_token_hint`; undefined when it kept none.
   */
  end(secret: string): Promise<string | undefined>;
  /** Ends every session of the user; how many were open. */
  endAllOf(userId: string, now: Date): Promise<number>;
}

export function dashboardSessionStoreOf(db: Database): DashboardSessionStore {
  return {
    async open({ userId, tokensExpireAt, now, idToken }) {
      const expiresAt = sessionEnd(now, DASHBOARD_SESSION_MS, tokensExpireAt);
      if (expiresAt === null) return null;
      const secret = newSessionSecret();
      await db.transaction(async (tx) => {
        await deleteExpiredDashboardSessions(tx, now);
        await insertDashboardSession(tx, {
          secretHash: sessionSecretHash(secret),
          userId,
          createdAt: now,
          expiresAt,
          idToken: idToken ?? null,
        });
      });
      return { secret, expiresAt };
    },
    async userOf(secret, now) {
      if (!isSessionSecret(secret)) return null;
      return (await findDashboardSessionUser(db, sessionSecretHash(secret), now)) ?? null;
    },
    async end(secret) {
      if (!isSessionSecret(secret)) return undefined;
      return (await deleteDashboardSession(db, sessionSecretHash(secret)))?.idToken ?? undefined;
    },
    async endAllOf(userId, now) {
      const ends = await deleteDashboardSessionsOf(db, userId);
      return ends.filter((end) => end.getTime() > now.getTime()).length;
    },
  };
}

/** Why a sign-in that the provider completed opens no session; each is said on the sign-in page. */
export type SignInRefusal = 'failed' | 'emailTaken';

export class SignInRefused extends Error {
  override readonly name = 'SignInRefused';
  constructor(readonly reason: SignInRefusal) {
    super(`Sign-in refused: ${reason}`);
  }
}

const claimText = (claim: unknown) => (typeof claim === 'string' && claim.trim() !== '' ? claim.trim() : undefined);

/** First and last name from the ID token: given_name and family_name, else `name` split at its last space. */
function namesOf(claims: CompletedSignIn['idClaims']): { firstName: string; lastName: string } | undefined {
  const firstName = claimText(claims.given_name);
  const lastName = claimText(claims.family_name);
  if (firstName !== undefined && lastName !== undefined) return { firstName, lastName };
  const whole = claimText(claims.name);
  const space = whole?.lastIndexOf(' ') ?? -1;
  if (whole === undefined || space <= 0) return undefined;
  return { firstName: whole.slice(0, space).trim(), lastName: whole.slice(space + 1) };
}

/** A signed-in user as the dashboard knows them after the provider's answer. */
export interface DashboardIdentity {
  userId: string;
  tokensExpireAt: Date;
  /**
   * Set when the user has no profile yet and the provider gave no name: the address the profile will have, kept
   * for the "complete your profile" form (docs/decisions.md#dashboard-pages).
   */
  newProfileEmail?: string;
}

/**
 * Who a completed sign-in is, as the API sees them: the access token checked by the API's own verifier, so the
 * session's user is the `sub` every bearer token of theirs gives, and the ID token's `sub` must be the same. The first
 * sign-in creates the profile as POST /v1/accounts does (docs/decisions.md#profile-creation): the address from the
 * access token's `email` claim (else the ID token's), the names from the ID token; without names, the profile is left
 * to the "complete your profile" form, with the address. When the session must end: the earlier of the two tokens'
 * expiries.
 */
export async function identityOf(
  db: Database,
  verifyToken: VerifyAccessToken,
  completed: CompletedSignIn,
  now: () => Date,
): Promise<DashboardIdentity> {
  let user: Awaited<ReturnType<VerifyAccessToken>>;
  try {
    user = await verifyToken(completed.accessToken);
  } catch {
    throw new SignInRefused('failed');
  }
  if (completed.idClaims.sub !== user.id) throw new SignInRefused('failed');
  const idTokenEnd = new Date(completed.idClaims.exp * 1000);
  const identity = { userId: user.id, tokensExpireAt: idTokenEnd < user.expiresAt ? idTokenEnd : user.expiresAt };
  if (await userExists(db, user.id)) return identity;
  const email = user.email ?? claimText(completed.idClaims.email);
  const names = namesOf(completed.idClaims);
  if (names === undefined) {
    // No profile can be made without an address; one another profile has is said now, not after the form.
    if (email === undefined) throw new SignInRefused('failed');
    if ((await findUserIdByAddress(db, email)) !== undefined) throw new SignInRefused('emailTaken');
    return { ...identity, newProfileEmail: email };
  }
  try {
    await createProfile(db, email === undefined ? { id: user.id } : { id: user.id, email }, names, now);
  } catch (error) {
    // A profile made at the same moment (another tab) is the one wanted; an address in use is said as such.
    if (!(isAppError(error) && error.statusCode === 409)) throw error;
    if (!(await userExists(db, user.id))) throw new SignInRefused('emailTaken');
  }
  return identity;
}
