/** A small LRU of compiled templates, so a server compiles each distinct template text once. */
import { compile, TemplateError, type Template } from './index.js';

/** Distinct templates a server sees are few (per-topic webhooks); 500 bounds memory at a few MB. */
export const CACHE_SIZE = 500;

const cache = new Map<string, Template | TemplateError>();

/**
 * compile() with memoisation keyed by name and text. Compile errors are cached too, so a client
 * repeating a bad template costs one lookup; the same error object is thrown each time.
 */
export function compileCached(text: string, name = ''): Template {
  const key = name + '\0' + text;
  let entry = cache.get(key);
  if (entry !== undefined) {
    cache.delete(key); // re-insert as most recently used
  } else {
    try {
      entry = compile(text, name);
    } catch (e) {
      if (!(e instanceof TemplateError)) throw e;
      entry = e;
    }
    if (cache.size >= CACHE_SIZE) cache.delete(cache.keys().next().value as string);
  }
  cache.set(key, entry);
  if (entry instanceof TemplateError) throw entry;
  return entry;
}

/** Number of cached entries (for tests and metrics). */
export const cachedCount = (): number => cache.size;
