import { browser } from 'wxt/browser';

type Area = 'local' | 'session';
type Changes = Record<string, { oldValue?: unknown; newValue?: unknown }>;

/** One value kept in extension storage under its key: the fallback while there is none, removed when set to null. */
export interface StoredItem<T> {
  getValue(): Promise<T>;
  setValue(value: T): Promise<void>;
  /** Calls back with every new value (the fallback once removed), not for a write of an equal one; returns the unwatch. */
  watch(callback: (value: T) => void): () => void;
}

/**
 * An item at `area:name`, stored as the value itself under `name` (as WXT's storage items stored it, so that what an
 * installed extension kept reads the same). WXT's own storage costs every page and the worker 3.6 KB of gzipped JS
 * for versions, metadata and locks that no item uses.
 */
export function defineItem<T>(key: `${Area}:${string}`, fallback: T): StoredItem<T> {
  const at = key.indexOf(':');
  const name = key.slice(at + 1);
  const area = () => browser.storage[key.slice(0, at) as Area];
  return {
    getValue: async () => ((await area().get(name))[name] ?? fallback) as T,
    setValue: (value) => (value == null ? area().remove(name) : area().set({ [name]: value })),
    watch(callback) {
      const listener = (changes: Changes) => {
        const change = changes[name];
        if (change && JSON.stringify(change.newValue) !== JSON.stringify(change.oldValue))
          callback((change.newValue ?? fallback) as T);
      };
      area().onChanged.addListener(listener);
      return () => area().onChanged.removeListener(listener);
    },
  };
}
