import { errors } from '../model/errors.js';
import type { ServerContext } from './context.js';
import type { RequestInfo } from './http/request.js';
import type { Exchange } from './http/respond.js';

/**
 * GET and HEAD /file/{id}[.ext]: an uploaded attachment, whole or one byte range
 * (`Range: bytes=a-b`, `a-`, `-n`), with its type and length. Gone or unknown files are 404.
 */
export function handleFile(ctx: ServerContext, ex: Exchange, req: RequestInfo, [id]: string[]): void {
  const file = ctx.attachments?.stat(id as string);
  if (!ctx.attachments || !file) throw errors.notFound;
  const headers: [string, string][] = [
    ['Content-Type', file.type],
    ['Accept-Ranges', 'bytes'],
  ];
  const range = parseRange(req.headers.get('range'), file.size);
  if (range === 'unsatisfiable') {
    ex.send(416, '', 'text/plain', [['Content-Range', `bytes */${file.size}`]]);
    return;
  }
  const [start, end] = range ?? [0, file.size - 1];
  const length = Math.max(0, end - start + 1);
  if (range) headers.push(['Content-Range', `bytes ${start}-${end}/${file.size}`]);
  const body = req.method === 'HEAD' || length === 0 ? undefined : ctx.attachments.read(file.id, { start, end });
  ex.stream(range ? 206 : 200, headers, length, body);
}

/** One range of a `Range` header; undefined for none (or one this server ignores, as HTTP allows). */
export function parseRange(header: string | undefined, size: number): [number, number] | 'unsatisfiable' | undefined {
  const match = header === undefined ? null : /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === '' && match[2] === '')) return undefined;
  const [from, to] = [match[1] as string, match[2] as string];
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return [Math.max(0, size - suffix), size - 1];
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size || end < start) return 'unsatisfiable';
  return [start, end];
}
