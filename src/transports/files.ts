import { errors } from '../model/errors.js';
import { Gate, runGuards, type Download, type Guard } from './guards/guard.js';
import type { Handler } from './routes.js';

/** A file route's guards (routes.ts declares them): on the request, and once the bytes to send are known. */
export interface FileGuards {
  request: readonly Guard[];
  download: readonly Guard<Download>[];
}

/**
 * GET and HEAD /file/{id}[.ext]: an uploaded attachment, whole or one byte range
 * (`Range: bytes=a-b`, `a-`, `-n`), with its type and length. Gone or unknown files are 404.
 */
export function handleFile(guards: FileGuards): Handler {
  return async (ctx, ex, req, [id]) => {
    const gate = new Gate(ctx, req, []);
    await runGuards(guards.request, gate);
    const file = await ctx.attachments?.stat(id as string);
    if (!ctx.attachments || !file) throw errors.notFound;
    const headers: [string, string][] = [
      ['Content-Type', file.type],
      ['Accept-Ranges', 'bytes'],
      ['Content-Disposition', `attachment; filename=${JSON.stringify(file.name)}`], // as ntfy, Go-quoted
    ];
    const range = parseRange(req.headers.get('range'), file.size);
    if (range === 'unsatisfiable') {
      ex.send(416, '', 'text/plain', [['Content-Range', `bytes */${file.size}`]]);
      return;
    }
    const [start, end] = range ?? [0, file.size - 1];
    const length = Math.max(0, end - start + 1);
    if (range) headers.push(['Content-Range', `bytes ${start}-${end}/${file.size}`]);
    const sending = req.method === 'HEAD' ? 0 : length;
    await runGuards(guards.download, { gate, owner: file.owner, bytes: sending });
    if (ex.aborted) return;
    const body = sending === 0 ? undefined : await ctx.attachments.read(file.id, { start, end });
    if (ex.aborted) body?.destroy(); // gone while the storage answered
    else ex.stream(range ? 206 : 200, headers, length, body);
  };
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
