import { MAX_EMAIL_LENGTH } from './schemas.js';

// What an invitation may be sent to: one address, nothing a mail library would read as a name, a comment or a
// second recipient (no blanks, <>, (), [], commas, semicolons, colons, quotes or backslashes), a local part of at
// most 64 characters and a domain with a dot. Its case is kept; comparisons ignore it.
const ADDRESS = /^[^\s@<>()[\],;:"\\]{1,64}@(?:[^\s@<>()[\],;:"\\.]+\.)+[^\s@<>()[\],;:"\\.]+$/u;

/** The address as the invitation keeps it (trimmed), or the problem with it. */
export function invitationAddress(value: string): string | { problem: string } {
  const address = value.trim();
  if (address.length > MAX_EMAIL_LENGTH) return { problem: `must be at most ${MAX_EMAIL_LENGTH} characters` };
  if (!ADDRESS.test(address)) return { problem: 'must be an email address, such as colleague@example.com' };
  return address;
}
