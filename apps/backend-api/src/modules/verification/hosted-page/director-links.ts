import type { DatabaseExecutor, VerificationSession } from '@platform/db';
import type { DocumentVault } from '@platform/document-vault';
import { openSubmittedDetails } from '@platform/verification-lifecycle';
import { listSessionChecks, openCheckEvidence } from '../checks/index.js';
import { listDirectorSessions } from '../repository.js';
import type { DirectorLink } from './directors-section.js';

// What the business's page shows of its directors (docs/decisions.md#directors): their own sessions, each named as
// the registry named them (the newest business_registry check's sealed evidence, `directors[n].name`, in the order
// their sessions were made) and linked to its hosted page.

export interface PageDirectors {
  company: string | null;
  links: DirectorLink[];
}

export async function pageDirectorsOf(
  db: DatabaseExecutor,
  vault: DocumentVault,
  session: VerificationSession,
  verifyUrl: string,
): Promise<PageDirectors | undefined> {
  if (session.type !== 'kyb') return undefined;
  const directors = await listDirectorSessions(db, session.id);
  if (directors.length === 0) return undefined;
  const names = await registryNamesOf(db, vault, session);
  const details = openSubmittedDetails(vault, session);
  return {
    company: names.company ?? (details?.type === 'kyb' ? details.companyName : null),
    links: directors.map((director, index) => ({
      name: names.directors[index] ?? null,
      url: `${verifyUrl}/session/${director.id}`,
      status: director.status,
    })),
  };
}

async function registryNamesOf(
  db: DatabaseExecutor,
  vault: DocumentVault,
  session: VerificationSession,
): Promise<{ company: string | null; directors: Array<string | null> }> {
  const registry = (await listSessionChecks(db, session.id))
    .filter((check) => check.kind === 'business_registry')
    .at(-1);
  const evidence = registry === undefined ? undefined : openCheckEvidence(vault, session, registry);
  const listed = Array.isArray(evidence?.directors) ? (evidence.directors as unknown[]) : [];
  return {
    company: typeof evidence?.registeredName === 'string' ? evidence.registeredName : null,
    directors: listed.map((each) =>
      typeof each === 'object' && each !== null && typeof (each as { name?: unknown }).name === 'string'
        ? (each as { name: string }).name
        : null,
    ),
  };
}
