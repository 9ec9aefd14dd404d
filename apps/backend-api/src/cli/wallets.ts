import { createDatabase } from '@platform/db';
import { runWalletsCommand } from './wallets-command.js';

const database = await createDatabase({
  url: process.env.DATABASE_URL || undefined,
  dataDir: process.env.DATABASE_URL ? undefined : (process.env.PGLITE_DATA_DIR ?? '.data/pglite'),
});
try {
  const result = await runWalletsCommand(process.argv.slice(2), database.db);
  (result.exitCode === 0 ? console.log : console.error)(result.lines.join('\n'));
  process.exitCode = result.exitCode;
} finally {
  await database.close();
}
