import { parseApiKeysCommand } from './api-keys-command.js';
import { runCommandProcess } from './database.js';

await runCommandProcess(parseApiKeysCommand);
