import { useEffect, useState } from 'preact/hooks';

/** A value the components share: they re-render when it is replaced. */
export class Store<T> {
  private readonly listeners = new Set<(value: T) => void>();

  constructor(private current: T) {}

  get value(): T {
    return this.current;
  }

  set(value: T): void {
    this.current = value;
    for (const listener of this.listeners) listener(value);
  }

  update(change: (value: T) => T): void {
    this.set(change(this.current));
  }

  subscribe(listener: (value: T) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The store's value, re-rendering the component on each change. */
export function useStore<T>(store: Store<T>): T {
  const [value, setValue] = useState(store.value);
  useEffect(() => {
    setValue(store.value);
    return store.subscribe(setValue);
  }, [store]);
  return value;
}
