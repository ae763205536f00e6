import { Store } from './store.js';

/**
 * A store kept in localStorage, so a reload keeps it: the session, the subscriptions and
 * their messages, the settings. Keys are prefixed to share the origin with other apps; the
 * tabs of the app share each value through the storage event.
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
  let fromOtherTab = false;
  store.subscribe((value) => {
    if (fromOtherTab) return;
    try {
      localStorage.setItem(name, JSON.stringify(value));
    } catch {
      // Quota reached or storage off: the state lives until the page closes.
    }
  });
  // Another tab of the app changed the value: take it, or this tab's next write would undo it.
  window.addEventListener('storage', (e) => {
    if (e.key !== name || e.newValue === null) return;
    fromOtherTab = true;
    try {
      store.set(JSON.parse(e.newValue) as T);
    } catch {
      // Not this version's JSON: keep this tab's value.
    } finally {
      fromOtherTab = false;
    }
  });
  return store;
}
