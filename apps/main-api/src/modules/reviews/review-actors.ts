import type { DatabaseExecutor } from '@platform/db';
import { findUserProfiles } from '../accounts/index.js';
import type { ReviewActor } from './review-views.js';

// Who moved a session, as a reviewer reads it (docs/decisions.md#decided-reviews): a transition's actor text
// (`reviewer:<userId>`, `smile_id`, `api_key:<id>`, ...) as its kind, and a reviewer named from their profile so the
// desk says who decided. Another actor's id (the customer's key, member or user) is left out: no reviewer needs it.

const REVIEWER_PREFIX = 'reviewer:';

/** The reviewer's user id an actor text names, or undefined for any other actor. */
function reviewerIdOf(actor: string): string | undefined {
  return actor.startsWith(REVIEWER_PREFIX) ? actor.slice(REVIEWER_PREFIX.length) : undefined;
}

/** The kind of an actor: the text before its first colon (`api_key:<id>` is `api_key`), or the whole text. */
function kindOf(actor: string): string {
  const colon = actor.indexOf(':');
  return colon === -1 ? actor : actor.slice(0, colon);
}

function fullName(profile: { firstName: string | null; lastName: string | null }): string | null {
  const name = [profile.firstName, profile.lastName].filter((part) => part !== null && part.trim() !== '').join(' ');
  return name === '' ? null : name;
}

/** Turns actor texts into actors, the reviewers among them named in one read of their profiles. */
export async function actorsNamer(
  db: DatabaseExecutor,
  actors: readonly string[],
): Promise<(actor: string) => ReviewActor> {
  const reviewerIds = [...new Set(actors.map(reviewerIdOf).filter((id): id is string => id !== undefined))];
  const profiles = await findUserProfiles(db, reviewerIds);
  return (actor) => {
    const userId = reviewerIdOf(actor);
    if (userId === undefined) return { kind: kindOf(actor), userId: null, name: null, email: null };
    const profile = profiles.get(userId);
    return {
      kind: 'reviewer',
      userId,
      name: profile === undefined ? null : fullName(profile),
      email: profile?.email ?? null,
    };
  };
}
