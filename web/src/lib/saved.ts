import { Store } from './store.js';

/**
 * A store kept in localStorage, so a reload keeps it: the session, the subscriptions and
 * their messages, the settings. Keys are prefixed to share the origin with other apps.
 */
export function savedStore<T>(key: string, fallback: T): Store<T> {
  const name = `tocsin.${key}`;
  let initial = fallback;
  try {
    const text = localStorage.getItem(name);
    if (text !== null) initial = JSON.parse(text) as T;
  } catch {
    // A value another version wrote, or storage turned off: start afresh.
  }
  const store = new Store<T>(initial);
  store.subscribe((value) => {
    try {
      localStorage.setItem(name, JSON.stringify(value));
    } catch {
      // Quota reached or storage off: the state lives until the page closes.
    }
  });
  return store;
}
