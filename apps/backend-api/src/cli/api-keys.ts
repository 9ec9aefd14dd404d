import { parseArgs } from 'node:util';
import { and, eq, isNull } from 'drizzle-orm';
import { apiKeys, createApiKey, createDatabase, organizations, revokeApiKey } from '@platform/db';

const usage = `Manage an organization's API keys.

  api-keys create --organization <id> --environment live|test [--name <name>] [--rate-limit <per minute>]
  api-keys list   --organization <id>
  api-keys revoke --id <key id>

Uses DATABASE_URL, or the local PGlite folder (PGLITE_DATA_DIR, default .data/pglite) when it is unset.
A PGlite folder can be opened by one process at a time: stop the local start first.`;

const { positionals, values } = parseArgs({
  allowPositionals: true,
  options: {
    organization: { type: 'string' },
    environment: { type: 'string' },
    name: { type: 'string' },
    'rate-limit': { type: 'string' },
    id: { type: 'string' },
    help: { type: 'boolean' },
  },
});

function fail(message: string): never {
  console.error(`${message}\n\n${usage}`);
  process.exit(2);
}

const command = positionals[0];
if (values.help || !command) {
  console.log(usage);
  process.exit(values.help ? 0 : 2);
}

const database = await createDatabase({
  url: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATABASE_URL ? undefined : (process.env.PGLITE_DATA_DIR ?? '.data/pglite'),
});
const { db } = database;

try {
  if (command === 'create') {
    const organizationId = values.organization ?? fail('--organization is required');
    const environment = values.environment;
    if (environment !== 'live' && environment !== 'test') fail('--environment must be live or test');
    const rateLimit = values['rate-limit'];
    const rateLimitPerMinute = rateLimit === undefined ? undefined : Number(rateLimit);
    if (rateLimitPerMinute !== undefined && (!Number.isInteger(rateLimitPerMinute) || rateLimitPerMinute < 1)) {
      fail('--rate-limit must be a whole number of requests per minute');
    }
    const [organization] = await db.select().from(organizations).where(eq(organizations.id, organizationId));
    if (!organization) fail(`No organization with id ${organizationId}`);
    const key = await createApiKey(db, { organizationId, environment, name: values.name, rateLimitPerMinute });
    console.log(`Created ${environment} key ${key.id} for ${organization.name}.`);
    console.log(`Secret (shown once, store it now): ${key.secret}`);
  } else if (command === 'list') {
    const organizationId = values.organization ?? fail('--organization is required');
    const rows = await db
      .select()
      .from(apiKeys)
      .where(and(eq(apiKeys.organizationId, organizationId), isNull(apiKeys.revokedAt)));
    for (const row of rows) {
      console.log(`${row.id}  sk_${row.environment}_...${row.lastFour}  ${row.name}  created ${row.createdAt.toISOString()}`);
    }
    if (rows.length === 0) console.log('No active keys.');
  } else if (command === 'revoke') {
    const id = values.id ?? fail('--id is required');
    const revoked = await revokeApiKey(db, { id });
    if (!revoked) fail(`No active key with id ${id}`);
    console.log(`Revoked key ${id}. It stops working at once.`);
  } else {
    fail(`Unknown command: ${command}`);
  }
} finally {
  await database.close();
}
