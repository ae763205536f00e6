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
  const [{ registerServe }, { registerUser }, { registerAccess }, { registerToken }, { registerTier }, { registerWebPush }] = await Promise.all([
    import('./serve.js'),
    import('./user.js'),
    import('./access.js'),
    import('./token.js'),
    import('./tier.js'),
    import('./webpush.js'),
  ]);
  registerServe(program);
  registerUser(program);
  registerAccess(program);
  registerToken(program);
  registerTier(program);
  registerWebPush(program);
}
// Lets publish/subscribe end their flags at the first argument (passThroughOptions), as
// ntfy's do. Set after the admin commands exist: commands made later inherit it, and
// `tocsin user list --config f` takes options after its subcommand.
program.enablePositionalOptions();
registerPublish(program);
registerSubscribe(program);
await program.parseAsync(process.argv);
