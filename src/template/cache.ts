/** A small LRU of compiled templates, so a server compiles each distinct template text once. */
import { compile, TemplateError, type Template } from './index.js';

/** Distinct templates a server sees are few (per-topic webhooks); 500 bounds memory at a few MB. */
export const CACHE_SIZE = 500;

interface Entry {
  name: string;
  compiled: Template | TemplateError;
  /** When it was last moved to the young end of the map. */
  used: number;
  /** The same text compiled under another name (names only show in error messages). */
  next: Entry | undefined;
}

/** By text, oldest first: a Map keeps insertion order, so the first key is the one to evict. */
const cache = new Map<string, Entry>();
let clock = 0;

/**
 * compile() with memoisation keyed by text and name. Compile errors are cached too, so a client
 * repeating a bad template costs one lookup; the same error object is thrown each time. A hit
 * moves its text to the young end only once it has aged half the cache, so the common hit is
 * one lookup (the key is the text itself: no key is built per call).
 */
export function compileCached(text: string, name = ''): Template {
  clock++;
  const first = cache.get(text);
  let entry = first;
  while (entry !== undefined && entry.name !== name) entry = entry.next;
  if (entry === undefined) {
    entry = { name, compiled: compileOrError(text, name), used: clock, next: first };
    if (first === undefined && cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    cache.delete(text);
    cache.set(text, entry);
  } else if (clock - entry.used > CACHE_SIZE / 2) {
    entry.used = clock;
    cache.delete(text);
    cache.set(text, first as Entry);
  }
  if (entry.compiled instanceof TemplateError) throw entry.compiled;
  return entry.compiled;
}

function compileOrError(text: string, name: string): Template | TemplateError {
  try {
    return compile(text, name);
  } catch (e) {
    if (!(e instanceof TemplateError)) throw e;
    return e;
  }
}

/** Number of cached texts (for tests and metrics). */
export const cachedCount = (): number => cache.size;
