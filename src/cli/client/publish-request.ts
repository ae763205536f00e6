import { basename } from 'node:path';
import type { Authorization } from './auth.js';
import { headerOfFlag } from './client-flags.js';
import type { FlagValues } from './flag-table.js';

/** What `tocsin publish` sends; the body is the message, or the file to upload. */
export interface PublishRequest {
  method: 'POST' | 'PUT';
  url: string;
  headers: Record<string, string>;
  /** A file path to stream, `-` for stdin, or undefined when the message is the body. */
  file?: string;
  message: string;
}

/**
 * The request for `flags` and `message`, with ntfy's headers (client/options.go): one
 * per set flag, `X-Markdown: yes`, `X-Cache: no`, `X-Firebase: no`, newlines in
 * `--actions` turned into spaces. With `--file` the message moves to `X-Message`, the
 * file's name (or "stdin") to `X-Filename`, and the file is PUT as the body.
 */
export function publishRequest(url: string, flags: FlagValues, message: string, auth: Authorization): PublishRequest {
  const headers: Record<string, string> = {};
  for (const [flag, header] of Object.entries(headerOfFlag)) {
    const value = flags[flag];
    if (typeof value === 'string' && value !== '') headers[header] = value;
  }
  if (typeof flags.actions === 'string' && flags.actions !== '') headers['X-Actions'] = flags.actions.replaceAll('\n', ' ');
  if (flags.markdown === true) headers['X-Markdown'] = 'yes';
  if (flags['no-cache'] === true) headers['X-Cache'] = 'no';
  if (flags['no-firebase'] === true) headers['X-Firebase'] = 'no';
  if (auth !== undefined) headers.Authorization = auth;
  const file = typeof flags.file === 'string' && flags.file !== '' ? flags.file : undefined;
  const filename = typeof flags.filename === 'string' && flags.filename !== '' ? flags.filename : undefined;
  if (file === undefined) {
    if (filename) headers['X-Filename'] = filename;
    return { method: 'POST', url, headers, message };
  }
  if (message !== '') headers['X-Message'] = message;
  headers['X-Filename'] = filename ?? (file === '-' ? 'stdin' : basename(file));
  return { method: 'PUT', url, headers, file, message };
}
