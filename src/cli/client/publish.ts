import { statSync } from 'node:fs';
import type { Command } from 'commander';
import { commandAuth } from './auth.js';
import { loadClientConfig } from './client-config.js';
import { ClientError, clientAction, openError } from './client-error.js';
import { publishFlags } from './client-flags.js';
import { addFlags, readFlags, type FlagValues } from './flag-table.js';
import { send, type Body } from './http-send.js';
import { progressBar } from './progress-bar.js';
import { parsePublishArgs, readStdin, readStdinMessage, stdinRedirected } from './publish-input.js';
import { publishRequest, type PublishRequest } from './publish-request.js';
import { topicUrl } from './topic-url.js';
import { runAndWait, waitForProcess } from './wait.js';

/** `tocsin publish` (aliases pub, send, trigger), as ntfy's cmd/publish.go. */
export function registerPublish(program: Command): void {
  const command = program
    .command('publish')
    .aliases(['pub', 'send', 'trigger'])
    .description('Send a message via a ntfy/Tocsin server')
    .usage('[options] [HOST/]TOPIC [MESSAGE...]\n       tocsin publish [options] --wait-cmd [HOST/]TOPIC COMMAND...\n       NTFY_TOPIC=.. tocsin publish [options] [MESSAGE...]')
    .argument('[args...]')
    // Flags end at the first argument, as with Go's flag package: `--wait-cmd topic rsync -av`.
    .passThroughOptions();
  addFlags(command, publishFlags).action(clientAction(async (args: string[], options: Record<string, unknown>) => publish(args, readFlags(options, publishFlags, process.env))));
}

async function publish(args: string[], flags: FlagValues): Promise<void> {
  const config = loadClientConfig(flags.config as string | undefined);
  const input = parsePublishArgs(args, { waitCmd: flags['wait-cmd'] === true, message: flags.message as string | undefined }, process.env.NTFY_TOPIC);
  // ntfy reads a piped message when no argument gave one; `--file -` keeps stdin for the file.
  if (input.message === '' && flags.file !== '-' && stdinRedirected()) input.message = await readStdinMessage();
  const url = topicUrl(input.topic, config.defaultHost);
  const auth = await commandAuth({ user: flags.user as string | undefined, token: flags.token as string | undefined }, config);
  const pid = typeof flags['wait-pid'] === 'number' ? flags['wait-pid'] : 0;
  if (pid > 0) input.message ||= await waitForProcess(pid);
  else if (input.command.length > 0) input.message ||= await runAndWait(input.command);
  const request = publishRequest(url, flags, input.message, auth);
  const body = await bodyOf(request);
  const total = Buffer.isBuffer(body) ? body.length : body.size;
  const progress = request.file !== undefined ? progressBar(process.stderr, total) : undefined;
  const answer = await send(request.method, request.url, request.headers, body, progress?.update);
  progress?.done();
  if (answer.status !== 200) throw new ClientError(answer.body.trim());
  if (flags.quiet !== true) process.stdout.write(`${answer.body.trim()}\n`);
}

async function bodyOf(request: PublishRequest): Promise<Body> {
  if (request.file === undefined) return Buffer.from(request.message, 'utf8');
  if (request.file === '-') return readStdin();
  try {
    return { path: request.file, size: statSync(request.file).size };
  } catch (err) {
    throw openError(request.file, err);
  }
}
