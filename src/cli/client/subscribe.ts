import type { Command } from 'commander';
import { commandAuth, subscriptionAuth } from './auth.js';
import { loadClientConfig } from './client-config.js';
import { ClientError, clientAction } from './client-error.js';
import { subscribeFlags } from './client-flags.js';
import { addFlags, readFlags, type FlagValues } from './flag-table.js';
import { runMessageCommand } from './message-command.js';
import { follow, poll, type Received, type StreamTarget } from './subscription.js';
import { shortUrl, topicUrl } from './topic-url.js';

/** A subscription and what to do with its messages: run `command`, or print them when it is empty. */
interface Job {
  target: StreamTarget;
  command: string;
}

/** `tocsin subscribe` (alias sub), as ntfy's cmd/subscribe.go, reconnecting without losing messages. */
export function registerSubscribe(program: Command): void {
  const command = program
    .command('subscribe')
    .alias('sub')
    .description('Subscribe to one or more topics; print each message as JSON or run COMMAND for it')
    .usage('[options] [HOST/]TOPICS [COMMAND]\n       tocsin subscribe [options] --from-config')
    .argument('[topics]')
    .argument('[command]')
    .allowExcessArguments()
    .passThroughOptions();
  addFlags(command, subscribeFlags).action(
    clientAction(async (topic: string | undefined, run: string | undefined, options: Record<string, unknown>) => subscribe(topic, run ?? '', readFlags(options, subscribeFlags, process.env))),
  );
}

async function subscribe(topic: string | undefined, command: string, flags: FlagValues): Promise<void> {
  const config = loadClientConfig(flags.config as string | undefined);
  const auth = await commandAuth({ user: flags.user as string | undefined, token: flags.token as string | undefined }, config);
  const fromConfig = flags['from-config'] === true ? config.subscribe : [];
  if (!topic && fromConfig.length === 0) throw new ClientError("must specify topic, type 'tocsin subscribe --help' for help");
  const query: Record<string, string> = {};
  if (typeof flags.since === 'string' && flags.since !== '') query.since = flags.since;
  if (flags.scheduled === true) query.scheduled = '1';
  const jobs: Job[] = fromConfig.map((s) => ({
    target: { url: topicUrl(s.topic, config.defaultHost), query: { ...query, ...s.if }, auth: subscriptionAuth(s, config, auth) },
    command: s.command || config.defaultCommand,
  }));
  if (topic) jobs.push({ target: { url: topicUrl(topic, config.defaultHost), query, auth }, command });

  if (flags.poll === true) {
    for (const job of jobs) for (const item of await poll(job.target, warn)) await handle(job, item);
    return;
  }
  // One message at a time over all subscriptions, in arrival order, as ntfy dispatches them.
  let queue = Promise.resolve();
  const never = new AbortController().signal;
  await Promise.all(jobs.map((job) => follow(job.target, (item) => (queue = queue.then(() => handle(job, item))), warn, never)));
}

async function handle(job: Job, item: Received): Promise<void> {
  if (job.command === '') {
    process.stdout.write(`${item.raw}\n`);
    return;
  }
  const failure = await runMessageCommand(job.command, item);
  if (failure !== undefined) warn(`${shortUrl(job.target.url)}/${item.message.id} Command failed: ${failure}`);
}

/** A warning on stderr in ntfy's text log format: "2026/11/25 14:31:34 WARN ...". */
function warn(text: string): void {
  const d = new Date();
  const two = (n: number): string => String(n).padStart(2, '0');
  process.stderr.write(`${d.getFullYear()}/${two(d.getMonth() + 1)}/${two(d.getDate())} ${two(d.getHours())}:${two(d.getMinutes())}:${two(d.getSeconds())} WARN ${text}\n`);
}
