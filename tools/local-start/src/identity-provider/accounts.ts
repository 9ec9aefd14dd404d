import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';

// The local identity provider's accounts and one-time codes (docs/decisions.md#dashboard-sign-in). Accounts are kept
// in a JSON file of the data folder (or in memory), found by address in any case; the demo people of the seed are
// accounts from the start, with their user ids as `sub`, so signing in as one of them opens their data.

interface LocalAccount {
  sub: string;
  email: string;
  givenName?: string;
  familyName?: string;
}

export interface AccountBook {
  byEmail(email: string): LocalAccount | undefined;
  bySub(sub: string): LocalAccount | undefined;
  /** Creates the account of a new address, with a new `sub`. */
  create(input: { email: string; givenName: string; familyName: string }): LocalAccount;
}

const sameAddress = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();

/** The accounts in `file` (created when missing), plus `known` (the seed's people) when the file lacks them. */
export function accountBookOf(
  file: string | undefined,
  known: ReadonlyArray<{ userId: string; email: string }>,
): AccountBook {
  const stored: LocalAccount[] =
    file !== undefined && existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as LocalAccount[]) : [];
  for (const person of known) {
    if (!stored.some((account) => account.sub === person.userId))
      stored.push({ sub: person.userId, email: person.email });
  }
  const save = () => {
    if (file !== undefined) writeFileSync(file, `${JSON.stringify(stored, null, 2)}\n`, { mode: 0o600 });
  };
  save();
  return {
    byEmail: (email) => stored.find((account) => sameAddress(account.email, email)),
    bySub: (sub) => stored.find((account) => account.sub === sub),
    create(input) {
      const account = { sub: `user_${randomBytes(8).toString('hex')}`, ...input };
      stored.push(account);
      save();
      return account;
    },
  };
}

const CODE_TTL_MS = 10 * 60 * 1000;
const MAX_ATTEMPTS = 5;
const hash = (code: string) => createHash('sha256').update(code).digest();

interface PendingCode {
  email: string;
  hash: Buffer;
  expiresAt: number;
  attempts: number;
}

/** One code per sign-in under way (its interaction), sent by email; 10 minutes, 5 tries, used once. */
export function oneTimeCodes(now: () => number = Date.now) {
  const pending = new Map<string, PendingCode>();
  return {
    issue(interaction: string, email: string): string {
      const code = String(randomInt(0, 1_000_000)).padStart(6, '0');
      pending.set(interaction, { email, hash: hash(code), expiresAt: now() + CODE_TTL_MS, attempts: 0 });
      return code;
    },
    emailOf: (interaction: string) => pending.get(interaction)?.email,
    /** The address the code was sent to when it is right; undefined otherwise (and the code is spent after 5 tries). */
    check(interaction: string, code: string): string | undefined {
      const entry = pending.get(interaction);
      if (entry === undefined || entry.expiresAt <= now()) return undefined;
      entry.attempts += 1;
      if (entry.attempts >= MAX_ATTEMPTS) pending.delete(interaction);
      if (!/^\d{6}$/.test(code) || !timingSafeEqual(hash(code), entry.hash)) return undefined;
      pending.delete(interaction);
      return entry.email;
    },
  };
}
