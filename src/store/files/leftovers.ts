import { readdir, readFile, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';
import type { StoredFile } from '../attachment-store.js';
import type { AttachmentIndex } from './attachment-index.js';

export const idPattern = /^[A-Za-z0-9]{1,64}$/;

/**
 * How long a part or unindexed bytes may sit untouched before they count as left over. A
 * live upload writes its part at every chunk, and a commit indexes its bytes right after
 * they took their place; uWS ends a request idle for 10 s, so an hour only leaves slack
 * for clocks of hosts sharing the directory.
 */
export const leftoverAgeMs = 60 * 60 * 1000;

/**
 * Clears what interrupted uploads and commits left in `dir` — parts, and bytes the index
 * does not know — once older than `leftoverAgeMs`, so the parts of another process using
 * the directory stay. Files of the layout before the index (`<id>.json` beside the bytes)
 * are taken into it; metadata without bytes is dropped.
 */
export async function clearLeftovers(dir: string, index: AttachmentIndex, now: number): Promise<void> {
  const names = new Set(await readdir(dir));
  for (const name of names) {
    if (!name.endsWith('.json')) continue;
    const id = name.slice(0, -5);
    if (idPattern.test(id) && names.has(id)) index.adopt(JSON.parse(await readFile(join(dir, name), 'utf8')) as StoredFile);
    await rm(join(dir, name), { force: true });
  }
  // Read after the adoption, and before the age check: a commit indexes after its rename.
  const indexed = index.ids();
  for (const name of names) {
    const candidate = name.endsWith('.part') || (idPattern.test(name) && !indexed.has(name));
    if (candidate && (await untouchedSince(join(dir, name), now - leftoverAgeMs))) await rm(join(dir, name), { force: true });
  }
}

async function untouchedSince(path: string, time: number): Promise<boolean> {
  try {
    return (await stat(path)).mtimeMs < time;
  } catch {
    return false; // gone meanwhile
  }
}
