import { Command, Option } from 'commander';
import { registerAccess } from './access.js';
import { registerImport } from './import.js';
import { registerServe } from './serve.js';
import { registerTier } from './tier.js';
import { registerToken } from './token.js';
import { registerUser } from './user.js';

const program = new Command('tocsin')
  .description('Self-hosted publish/subscribe notification server that speaks the ntfy protocol')
  .addOption(new Option('--version').hideHelp())
  .showHelpAfterError();
registerServe(program);
registerUser(program);
registerAccess(program);
registerToken(program);
registerTier(program);
registerImport(program);
await program.parseAsync(process.argv);
