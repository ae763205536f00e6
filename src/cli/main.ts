import { Command, Option } from 'commander';
import { registerPublish } from './client/publish.js';
import { registerSubscribe } from './client/subscribe.js';

const program = new Command('tocsin')
  .description('Self-hosted publish/subscribe notification server that speaks the ntfy protocol')
  .addOption(new Option('--version').hideHelp())
  .showHelpAfterError();

// The client commands start in ~0.1 s: the server's modules (uWS, SQLite, MongoDB, mail)
// take a second to load, so they are imported only for the other commands.
const clientWords = ['publish', 'pub', 'send', 'trigger', 'subscribe', 'sub'];
if (!clientWords.includes(process.argv[2] ?? '')) {
  const registers = await Promise.all([
    import('./serve.js').then((m) => m.registerServe),
    import('./user.js').then((m) => m.registerUser),
    import('./access.js').then((m) => m.registerAccess),
    import('./group.js').then((m) => m.registerGroup),
    import('./token.js').then((m) => m.registerToken),
    import('./tier.js').then((m) => m.registerTier),
    import('./webpush.js').then((m) => m.registerWebPush),
    import('./import.js').then((m) => m.registerImport),
  ]);
  for (const register of registers) register(program);
}
// Lets publish/subscribe end their flags at the first argument (passThroughOptions), as
// ntfy's do. Set after the admin commands exist: commands made later inherit it, and
// `tocsin user list --config f` takes options after its subcommand.
program.enablePositionalOptions();
registerPublish(program);
registerSubscribe(program);
await program.parseAsync(process.argv);
