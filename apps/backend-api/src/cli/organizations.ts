import { runCommandProcess } from './database.js';
import { parseOrganizationsCommand } from './organizations-command.js';

await runCommandProcess(parseOrganizationsCommand);
