import type { FlagSpec } from './flag-table.js';

/**
 * `tocsin publish` flags: ntfy's (cmd/publish.go) with their aliases and NTFY_* variables,
 * plus `--call` and `--sequence-id` (headers ntfy's server takes that its 2.13 CLI has no
 * flag for).
 */
export const publishFlags: readonly FlagSpec[] = [
  { name: 'config', aliases: ['c'], env: 'NTFY_CONFIG', kind: 'string', usage: 'client config file' },
  { name: 'title', aliases: ['t'], env: 'NTFY_TITLE', kind: 'string', usage: 'message title' },
  { name: 'message', aliases: ['m'], env: 'NTFY_MESSAGE', kind: 'string', usage: 'message body' },
  { name: 'priority', aliases: ['p'], env: 'NTFY_PRIORITY', kind: 'string', usage: 'priority of the message (1=min, 2=low, 3=default, 4=high, 5=max)' },
  { name: 'tags', aliases: ['tag', 'T'], env: 'NTFY_TAGS', kind: 'string', usage: 'comma separated list of tags and emojis' },
  { name: 'delay', aliases: ['at', 'in', 'D'], env: 'NTFY_DELAY', kind: 'string', usage: 'delay/schedule message' },
  { name: 'click', aliases: ['U'], env: 'NTFY_CLICK', kind: 'string', usage: 'URL to open when notification is clicked' },
  { name: 'icon', aliases: ['i'], env: 'NTFY_ICON', kind: 'string', usage: 'URL to use as notification icon' },
  { name: 'actions', aliases: ['A'], env: 'NTFY_ACTIONS', kind: 'string', usage: 'actions JSON array or simple definition' },
  { name: 'attach', aliases: ['a'], env: 'NTFY_ATTACH', kind: 'string', usage: 'URL to send as an external attachment' },
  { name: 'markdown', aliases: ['md'], env: 'NTFY_MARKDOWN', kind: 'bool', usage: 'message is formatted as Markdown' },
  { name: 'filename', aliases: ['name', 'n'], env: 'NTFY_FILENAME', kind: 'string', usage: 'filename for the attachment' },
  { name: 'file', aliases: ['f'], env: 'NTFY_FILE', kind: 'string', usage: 'file to upload as an attachment (- for stdin)' },
  { name: 'email', aliases: ['mail', 'e'], env: 'NTFY_EMAIL', kind: 'string', usage: 'also send to e-mail address' },
  { name: 'call', env: 'NTFY_CALL', kind: 'string', usage: 'also call this phone number (or yes for the first verified one)' },
  { name: 'sequence-id', aliases: ['sid'], env: 'NTFY_SEQUENCE_ID', kind: 'string', usage: 'sequence ID, to update or replace an earlier notification' },
  { name: 'user', aliases: ['u'], env: 'NTFY_USER', kind: 'string', usage: 'username[:password] used to auth against the server' },
  { name: 'token', aliases: ['k'], env: 'NTFY_TOKEN', kind: 'string', usage: 'access token used to auth against the server' },
  { name: 'wait-pid', aliases: ['wait_pid', 'pid'], env: 'NTFY_WAIT_PID', kind: 'int', usage: 'wait until PID exits before publishing' },
  { name: 'wait-cmd', aliases: ['wait_cmd', 'cmd', 'done'], env: 'NTFY_WAIT_CMD', kind: 'bool', usage: 'run command and wait until it finishes before publishing' },
  { name: 'no-cache', aliases: ['no_cache', 'C'], env: 'NTFY_NO_CACHE', kind: 'bool', usage: 'do not cache message server-side' },
  { name: 'no-firebase', aliases: ['no_firebase', 'F'], env: 'NTFY_NO_FIREBASE', kind: 'bool', usage: 'do not forward message to Firebase' },
  { name: 'quiet', aliases: ['q'], env: 'NTFY_QUIET', kind: 'bool', usage: 'do not print message' },
];

/** Flags that become one request header each, as ntfy's client.With* options send them. */
export const headerOfFlag: Readonly<Record<string, string>> = {
  title: 'X-Title',
  priority: 'X-Priority',
  tags: 'X-Tags',
  delay: 'X-Delay',
  click: 'X-Click',
  icon: 'X-Icon',
  attach: 'X-Attach',
  email: 'X-Email',
  call: 'X-Call',
  'sequence-id': 'X-Sequence-ID',
};

/** `tocsin subscribe` flags (ntfy's cmd/subscribe.go). */
export const subscribeFlags: readonly FlagSpec[] = [
  { name: 'config', aliases: ['c'], kind: 'string', usage: 'client config file' },
  { name: 'since', aliases: ['s'], kind: 'string', usage: 'return events since SINCE (Unix timestamp, duration, message ID, or all)' },
  { name: 'user', aliases: ['u'], env: 'NTFY_USER', kind: 'string', usage: 'username[:password] used to auth against the server' },
  { name: 'token', aliases: ['k'], env: 'NTFY_TOKEN', kind: 'string', usage: 'access token used to auth against the server' },
  { name: 'from-config', aliases: ['from_config', 'C'], kind: 'bool', usage: 'read subscriptions from config file (service mode)' },
  { name: 'poll', aliases: ['p'], kind: 'bool', usage: 'return events and exit, do not listen for new events' },
  { name: 'scheduled', aliases: ['sched', 'S'], kind: 'bool', usage: 'also return scheduled/delayed events' },
];
