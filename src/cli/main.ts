import { Command, Option } from 'commander';
import { registerPublish } from './client/publish.js';
import { registerSubscribe } from './client/subscribe.js';

const program = new Command('tocsin')
  .description('Self-hosted publish/subscribe notification server that speaks the ntfy protocol')
  .addOption(new Option('--version').hideHelp())
  .showHelpAfterError();

// The client commands start in ~0.1 s: the server's modules (uWS, SQLite, MongoDB, mail)
// take a second or more to load, so an admin command imports only its own module (and
// that module its backend's), and only help or an unknown word loads them all.
type Register = (program: Command) => void;
const adminCommands: Record<string, () => Promise<Register>> = {
  serve: () => import('./serve.js').then((m) => m.registerServe),
  user: () => import('./user.js').then((m) => m.registerUser),
  access: () => import('./access.js').then((m) => m.registerAccess),
  group: () => import('./group.js').then((m) => m.registerGroup),
  token: () => import('./token.js').then((m) => m.registerToken),
  tier: () => import('./tier.js').then((m) => m.registerTier),
  webpush: () => import('./webpush.js').then((m) => m.registerWebPush),
  import: () => import('./import.js').then((m) => m.registerImport),
};
const clientWords = ['publish', 'pub', 'send', 'trigger', 'subscribe', 'sub'];
const word = process.argv[2] ?? '';
if (!clientWords.includes(word)) {
  const own = Object.hasOwn(adminCommands, word) ? adminCommands[word] : undefined;
  const loads = own ? [own] : Object.values(adminCommands);
  for (const register of await Promise.all(loads.map((load) => load()))) register(program);
}
// Lets publish/subscribe end their flags at the first argument (passThroughOptions), as
// ntfy's do. Set after the admin commands exist: commands made later inherit it, and
// `tocsin user list --config f` takes options after its subcommand.
program.enablePositionalOptions();
registerPublish(program);
registerSubscribe(program);
await program.parseAsync(process.argv);
