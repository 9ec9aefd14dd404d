import { SignJWT } from 'jose';

export interface SignAccessTokenOptions {
  /** HS256 secret shared with the service (AUTH_JWT_SECRET). */
  secret: string;
  issuer: string;
  audience: string;
  /** The user id; becomes the token's `sub`. */
  subject: string;
  /** The user's address, carried as the `email` claim (profile creation and invitations read it). */
  email?: string;
  /** Lifetime: seconds as a number, or a jose time span such as '1h' or '30d'. Default '1h'. */
  expiresIn?: number | string;
  /** Issue time; defaults to now. */
  now?: Date;
}

/** Mints an HS256 access token that main-api accepts when configured with the same secret. */
export async function signAccessToken(options: SignAccessTokenOptions): Promise<string> {
  const issuedAt = Math.floor((options.now ?? new Date()).getTime() / 1000);
  const expiresIn = options.expiresIn ?? '1h';
  // jose reads a number as an absolute timestamp; a lifetime in seconds is relative to the issue time.
  const expiration = typeof expiresIn === 'number' ? issuedAt + expiresIn : expiresIn;
  return new SignJWT(options.email === undefined ? {} : { email: options.email })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(options.subject)
    .setIssuer(options.issuer)
    .setAudience(options.audience)
    .setIssuedAt(issuedAt)
    .setExpirationTime(expiration)
    .sign(new TextEncoder().encode(options.secret));
}
