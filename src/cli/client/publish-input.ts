import { fstatSync } from 'node:fs';
import { ClientError } from './client-error.js';

export interface PublishInput {
  topic: string;
  message: string;
  /** The command of `--wait-cmd`, empty without it. */
  command: string[];
}

/**
 * The topic, message and `--wait-cmd` command from the arguments, as ntfy's
 * parseTopicMessageCommand reads them: NTFY_TOPIC, when set, is the topic and every
 * argument is message (or command); else the first argument is the topic. The message
 * arguments are joined by spaces; `--message` replaces them.
 */
export function parsePublishArgs(args: readonly string[], options: { waitCmd: boolean; message?: string }, envTopic: string | undefined): PublishInput {
  const topic = envTopic || args[0];
  if (!topic) throw new ClientError("must specify topic, type 'tocsin publish --help' for help");
  const rest = envTopic ? args : args.slice(1);
  if (options.waitCmd && rest.length === 0) throw new ClientError("must specify command when --wait-cmd is passed, type 'tocsin publish --help' for help");
  const command = options.waitCmd ? [...rest] : [];
  const message = options.message || (options.waitCmd ? '' : rest.join(' '));
  return { topic, message, command };
}

/**
 * Whether stdin is redirected (a pipe or a file, not a terminal): ntfy then reads the
 * message from it when no argument gave one.
 */
export function stdinRedirected(): boolean {
  try {
    return !fstatSync(0).isCharacterDevice();
  } catch {
    return false;
  }
}

// ntfy reads at most 1 MB of a piped message (io.LimitReader); the server's limit is lower.
const stdinMessageLimit = 1024 * 1024;

/** The message piped to stdin, trimmed, at most its first MB. */
export async function readStdinMessage(): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) {
    chunks.push(chunk);
    size += chunk.length;
    if (size >= stdinMessageLimit) break;
  }
  return Buffer.concat(chunks).subarray(0, stdinMessageLimit).toString('utf8').trim();
}

/** All of stdin, for `--file -`. */
export async function readStdin(): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin as AsyncIterable<Buffer>) chunks.push(chunk);
  return Buffer.concat(chunks);
}
