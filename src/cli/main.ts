import { Command, Option } from 'commander';
import { registerAccess } from './access.js';
import { registerPublish } from './client/publish.js';
import { registerSubscribe } from './client/subscribe.js';
import { registerServe } from './serve.js';
import { registerTier } from './tier.js';
import { registerToken } from './token.js';
import { registerUser } from './user.js';

const program = new Command('tocsin')
  .description('Self-hosted publish/subscribe notification server that speaks the ntfy protocol')
  .addOption(new Option('--version').hideHelp())
  .showHelpAfterError()
  // lets publish/subscribe end their flags at the first argument (passThroughOptions), as ntfy's do
  .enablePositionalOptions();
registerServe(program);
registerUser(program);
registerAccess(program);
registerToken(program);
registerTier(program);
registerPublish(program);
registerSubscribe(program);
await program.parseAsync(process.argv);
