// Ids are PostgreSQL uuids. A value that cannot be one is looked up nowhere: the database would refuse it with
// an error instead of finding nothing, and a malformed id answers like an unknown one
// (docs/decisions.md#marking-a-notification-read, docs/decisions.md#repeated-revocation).

/** A uuid as PostgreSQL reads it: any version, either case. As text, for JSON schemas' `pattern`. */
export const uuidPattern = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

const uuid = new RegExp(uuidPattern);

/** Whether `value` can be a uuid id, so it can be looked up. */
export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && uuid.test(value);
}
