import { isStorableText } from '@platform/http';
import {
  createRemoteJWKSet,
  decodeProtectedHeader,
  errors,
  type JWTPayload,
  type JWTVerifyGetKey,
  jwtVerify,
} from 'jose';
import type { TokenKeySource } from '../config.js';
import { importHmacVerificationKey } from './hmac-verification-key.js';
import { rememberVerifiedTokens } from './verified-token-cache.js';

/** The identity a valid access token proves. */
export interface AuthenticatedUser {
  id: string;
  /**
   * The token's `email` claim, when it carries a usable one: the address a new profile gets and the one an
   * invitation must match (docs/decisions.md#profile-creation). Never taken from a request body.
   */
  email?: string;
  /**
   * When the token stops being valid (its `exp`, which every accepted token has): what it opens lasts no longer,
   * such as a review console session (docs/decisions.md#console-sessions).
   */
  expiresAt: Date;
}

/** Verifies a bearer token; resolves to its user or rejects with InvalidTokenError. */
export type TokenVerifier = (token: string) => Promise<AuthenticatedUser>;

/** Where verification keys come from: config's sources, or a ready key set (e.g. jose's createLocalJWKSet). */
export type TokenKeys = TokenKeySource | { kind: 'keySet'; keySet: JWTVerifyGetKey };

export interface TokenVerifierOptions {
  keys: TokenKeys;
  issuer: string;
  audience: string;
  /** Clock used for exp/nbf; defaults to the system time. */
  now?: () => Date;
}

/** The token itself is not acceptable: the client must obtain a new one. */
export class InvalidTokenError extends Error {
  override readonly name = 'InvalidTokenError';
}

/** The key set could not be fetched, so no token can be judged right now: a server-side fault. */
export class KeySetUnavailableError extends Error {
  override readonly name = 'KeySetUnavailableError';
}

const MAX_SUBJECT_LENGTH = 255;
// RFC 5321's limit on a whole address.
const MAX_EMAIL_LENGTH = 320;
// One @, something on either side, no spaces: the identity provider checked the address; this keeps out what
// could not be one (a number, a name) without judging addresses a provider accepted.
const EMAIL_SHAPE = /^[^\s@]+@[^\s@]+$/;

/** The `email` claim when it is an address that can be stored; otherwise none (the token stays valid). */
function usableEmail(claim: unknown): string | undefined {
  if (typeof claim !== 'string' || claim.length > MAX_EMAIL_LENGTH || !isStorableText(claim)) return undefined;
  return EMAIL_SHAPE.test(claim) ? claim : undefined;
}
// Allowance for clock drift between the identity provider and this service.
const CLOCK_TOLERANCE_SECONDS = 5;
// Shorter than jose's own cache of a remote key set (10 minutes), so remembering adds no staleness to key removal.
const VERIFIED_TOKEN_MAX_AGE_MS = 60_000;
const VERIFIED_TOKEN_MAX_ENTRIES = 10_000;

export function createTokenVerifier(options: TokenVerifierOptions): TokenVerifier {
  const verifySignatureAndClaims = rememberVerifiedTokens(signatureVerifier(options), {
    maxAgeMs: VERIFIED_TOKEN_MAX_AGE_MS,
    maxEntries: VERIFIED_TOKEN_MAX_ENTRIES,
    clockToleranceSeconds: CLOCK_TOLERANCE_SECONDS,
  });
  const now = options.now ?? (() => new Date());

  return async (token) => {
    let payload: JWTPayload;
    try {
      payload = await verifySignatureAndClaims(token, now());
    } catch (error) {
      if (error instanceof KeySetUnavailableError) throw error;
      throw new InvalidTokenError('Access token rejected', { cause: error });
    }
    const subject = payload.sub;
    // The subject is the user id stored in every row the user owns: text PostgreSQL refuses makes the token unusable.
    if (
      typeof subject !== 'string' ||
      subject.length === 0 ||
      subject.length > MAX_SUBJECT_LENGTH ||
      !isStorableText(subject)
    ) {
      throw new InvalidTokenError('Access token has no usable subject');
    }
    const email = usableEmail(payload.email);
    // requiredClaims makes jose refuse a token without a numeric exp.
    const expiresAt = new Date((payload.exp as number) * 1000);
    return email === undefined ? { id: subject, expiresAt } : { id: subject, email, expiresAt };
  };
}

// The algorithm list is pinned per key source, so a token cannot choose another algorithm (or `none`). With both a
// secret and a JWKS (docs/decisions.md#dashboard-sign-in: the local start's identity provider beside the credentials
// file's tokens) the header's `alg` only picks which of the two judges the token; each still pins its algorithms.
function signatureVerifier({ keys, issuer, audience }: TokenVerifierOptions) {
  const claims = { issuer, audience, requiredClaims: ['exp', 'sub'], clockTolerance: CLOCK_TOLERANCE_SECONDS };
  const bySecret = (secretText: string) => {
    const secret = importHmacVerificationKey(secretText);
    return async (token: string, currentDate: Date) =>
      (await jwtVerify(token, await secret, { ...claims, algorithms: ['HS256'], currentDate })).payload;
  };
  const byKeySet = (source: JWTVerifyGetKey) => {
    const keySet = tellOutagesApart(source);
    return async (token: string, currentDate: Date) =>
      (await jwtVerify(token, keySet, { ...claims, algorithms: ['RS256', 'ES256'], currentDate })).payload;
  };
  if (keys.kind === 'secret') return bySecret(keys.secret);
  if (keys.kind === 'keySet') return byKeySet(keys.keySet);
  const remote = byKeySet(createRemoteJWKSet(keys.jwksUrl));
  if (keys.kind === 'jwks') return remote;
  const shared = bySecret(keys.secret);
  return (token: string, currentDate: Date) =>
    headerAlgorithm(token) === 'HS256' ? shared(token, currentDate) : remote(token, currentDate);
}

/** The `alg` of a token's header; undefined for what is no JWS (jwtVerify then refuses it). */
function headerAlgorithm(token: string): string | undefined {
  try {
    return decodeProtectedHeader(token).alg;
  } catch {
    return undefined;
  }
}

// A key set that has no key for the token's `kid` judges the token; a key set that cannot be fetched
// (network error, timeout, bad response) judges nothing, and must not log every user out with 401s.
function tellOutagesApart(keySet: JWTVerifyGetKey): JWTVerifyGetKey {
  return async (header, token) => {
    try {
      return await keySet(header, token);
    } catch (error) {
      if (
        error instanceof errors.JWKSNoMatchingKey ||
        error instanceof errors.JWKSMultipleMatchingKeys ||
        error instanceof errors.JOSENotSupported
      ) {
        throw error;
      }
      throw new KeySetUnavailableError('Key set unavailable', { cause: error });
    }
  };
}
