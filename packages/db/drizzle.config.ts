import { defineConfig } from 'drizzle-kit';

// `pnpm db:generate` (drizzle-kit generate) diffs the schema against the last snapshot in ./migrations and
// writes the next migration there. Migrations are committed and applied at startup by migrateDatabase().
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/schema/index.ts',
  out: './migrations',
  strict: true,
  verbose: true,
});
