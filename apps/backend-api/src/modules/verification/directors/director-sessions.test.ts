import { unitOfWork } from '@platform/db';
import { beforeEach, describe, expect, it } from 'vitest';
import { replaceOrganizations, TEST_START, type TestOrganization, useTestApp } from '../../../../test/app-fixtures.js';
import {
  createdSessionId,
  eventTypesOf,
  fundWallet,
  holdMovements,
  transitionsOf,
  truncateVerificationData,
  walletState,
} from '../../../../test/verification-fixtures.js';
import { listDirectorSessions } from '../repository.js';
import { readAnySession } from '../service.js';
import { addDirectorSessions, directorEndUserId } from './director-sessions.js';
import { directorsCheckOf } from './directors-check.js';

describe("directors' own sessions", () => {
  const suite = useTestApp();
  let acme: TestOrganization;

  beforeEach(async () => {
    suite.clock.set(TEST_START);
    await truncateVerificationData(suite.db);
    [acme] = await replaceOrganizations(suite.db, 'Acme');
    await fundWallet(suite.db, acme.id, 'live', 10_000);
  });

  it("makes a kyc session per director in the business's organization, language and callback, paid by the business", async () => {
    const parentId = await createdSessionId(suite.app, acme.liveKey, {
      type: 'kyb',
      externalEndUserId: 'business-7',
      locale: 'sw',
      callbackUrl: 'https://acme.example/callbacks',
    });
    const parent = await readAnySession(suite.db, parentId);
    if (parent === undefined) throw new Error('no parent');
    const before = await walletState(suite.db, acme.id, 'live');

    const ids = await unitOfWork(suite.db, async (work) =>
      addDirectorSessions(work, parent, 2, {
        decisionSource: 'manual',
        ttlMs: 7 * 24 * 60 * 60 * 1000,
        now: TEST_START,
        lifecycle: {},
      }),
    );

    const directors = await listDirectorSessions(suite.db, parentId);
    expect(directors.map((director) => director.id).sort()).toEqual([...ids].sort());
    expect(
      directors.map(({ type, status, price, locale, callbackUrl, externalEndUserId, organizationId, environment }) => ({
        type,
        status,
        price,
        locale,
        callbackUrl,
        externalEndUserId,
        organizationId,
        environment,
      })),
    ).toEqual(
      [1, 2].map((n) => ({
        type: 'kyc',
        status: 'pending',
        price: 0,
        locale: 'sw',
        callbackUrl: 'https://acme.example/callbacks',
        externalEndUserId: `business-7#director-${n}`,
        organizationId: acme.id,
        environment: 'live',
      })),
    );
    for (const director of directors) {
      expect(await holdMovements(suite.db, director.id)).toEqual([]);
      expect(await transitionsOf(suite.db, director.id)).toMatchObject([
        { from: null, to: 'pending', actor: 'directors' },
      ]);
      expect(await eventTypesOf(suite.db, director.id)).toEqual(['verification_session.created']);
    }
    expect(await walletState(suite.db, acme.id, 'live')).toEqual(before);
  });

  it('keeps a long end user id within its 255 characters', () => {
    const id = directorEndUserId({ externalEndUserId: 'x'.repeat(255) }, 11);
    expect(id).toHaveLength(255);
    expect(id.endsWith('#director-12')).toBe(true);
  });

  it('passes once every director verified, fails when one did not, and waits while one is open', () => {
    expect(directorsCheckOf([{ status: 'verified' }, { status: 'processing' }], 'service')).toBeUndefined();
    expect(directorsCheckOf([{ status: 'verified' }, { status: 'verified' }], 'service')?.outcome).toBe('passed');
    expect(directorsCheckOf([{ status: 'verified' }, { status: 'expired' }], 'service')).toMatchObject({
      outcome: 'failed',
      code: 'director_not_verified',
      summary: '1 of 2 directors were not verified.',
    });
    expect(directorsCheckOf([], 'service')?.outcome).toBe('attention');
  });
});
