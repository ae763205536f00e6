/** Go's path package (slash-separated; filepath on Linux is the same), for Sprig's path functions. */
import { fn, type GoFunc } from '../funcs.js';

/** path.Clean: the shortest lexically equivalent path. */
export function clean(p: string): string {
  if (p === '') return '.';
  const rooted = p.startsWith('/');
  const out: string[] = [];
  for (const seg of p.split('/')) {
    if (seg === '' || seg === '.') continue;
    if (seg === '..') {
      if (out.length > 0 && out[out.length - 1] !== '..') out.pop();
      else if (!rooted) out.push('..');
      continue;
    }
    out.push(seg);
  }
  const s = (rooted ? '/' : '') + out.join('/');
  return s === '' ? (rooted ? '/' : '.') : s;
}

function base(p: string): string {
  if (p === '') return '.';
  p = p.replace(/\/+$/, '');
  if (p === '') return '/';
  return p.slice(p.lastIndexOf('/') + 1);
}

const dir = (p: string): string => clean(p.slice(0, p.lastIndexOf('/') + 1));

function ext(p: string): string {
  for (let i = p.length - 1; i >= 0 && p[i] !== '/'; i--) if (p[i] === '.') return p.slice(i);
  return '';
}

const isAbs = (p: string): boolean => p.startsWith('/');

export const paths: Record<string, GoFunc> = {
  base: fn('string', base),
  dir: fn('string', dir),
  clean: fn('string', clean),
  ext: fn('string', ext),
  isAbs: fn('string', isAbs),
  osBase: fn('string', base),
  osClean: fn('string', clean),
  osDir: fn('string', dir),
  osExt: fn('string', ext),
  osIsAbs: fn('string', isAbs),
};
