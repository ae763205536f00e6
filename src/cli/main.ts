import { Command, Option } from 'commander';
import { registerServe } from './serve.js';

const program = new Command('tocsin')
  .description('Self-hosted publish/subscribe notification server that speaks the ntfy protocol')
  .addOption(new Option('--version').hideHelp())
  .showHelpAfterError();
registerServe(program);
await program.parseAsync(process.argv);
