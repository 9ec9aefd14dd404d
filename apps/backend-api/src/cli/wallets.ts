import { runCommandProcess } from './database.js';
import { parseWalletsCommand } from './wallets-command.js';

await runCommandProcess(parseWalletsCommand);
