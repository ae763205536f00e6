import { spawn } from 'node:child_process';
import type { Received } from './subscription.js';

/**
 * The variables a subscription's command sees, as ntfy's envVars sets them (each with its
 * aliases), plus `$NTFY_CLICK`/`$click`. A message without a priority has the default, 3
 * (ntfy's CLI passes 0).
 */
export function messageEnv({ raw, message: m }: Received): Record<string, string> {
  const vars: [string, string[]][] = [
    [m.id, ['NTFY_ID', 'id']],
    [m.topic, ['NTFY_TOPIC', 'topic']],
    [String(m.time), ['NTFY_TIME', 'time']],
    [m.message ?? '', ['NTFY_MESSAGE', 'message', 'm']],
    [m.title ?? '', ['NTFY_TITLE', 'title', 't']],
    [String(m.priority ?? 3), ['NTFY_PRIORITY', 'priority', 'prio', 'p']],
    [(m.tags ?? []).join(','), ['NTFY_TAGS', 'tags', 'tag', 'ta']],
    [m.click ?? '', ['NTFY_CLICK', 'click']],
    [raw, ['NTFY_RAW', 'raw']],
  ];
  return Object.fromEntries(vars.flatMap(([value, names]) => names.map((name) => [name, value])));
}

/**
 * Runs `command` with `sh -c` (ntfy writes it to a script that sh runs: the same), with
 * this process's environment and the message's variables, stdio shared; resolves with the
 * failure to report, if any.
 */
export function runMessageCommand(command: string, item: Received): Promise<string | undefined> {
  return new Promise((resolve) => {
    const child = spawn('sh', ['-c', command], { env: { ...process.env, ...messageEnv(item) }, stdio: 'inherit' });
    child.once('error', (err) => resolve(err.message));
    child.once('exit', (code, signal) => resolve(code === 0 ? undefined : signal ? `signal: ${signal}` : `exit status ${code}`));
  });
}
