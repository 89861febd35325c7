import type { RefObject } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import type { Reply, WorkerError } from '../lib/messaging/protocol';
import { type Cached, drafts } from '../lib/storage';
import type { StoredItem } from '../lib/storage/item';
import { keepable, restore } from './draft-keeping';
import { noteReply } from './service-down';

/** A storage item's value, kept current as it changes; undefined until read. */
export function useItem<T>(item: StoredItem<T>): T | undefined {
  const [value, setValue] = useState<T>();
  useEffect(() => {
    // A change seen while the first read is on its way is newer than what that read will bring.
    let changed = false;
    const unwatch = item.watch((next) => {
      changed = true;
      setValue(next);
    });
    item.getValue().then((first) => changed || setValue(first));
    return unwatch;
  }, [item]);
  return value;
}

/** One thing at a time asked of the worker: whether it is under way, and its failure. */
export function useTask() {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<WorkerError | null>(null);
  async function run<T>(task: () => Promise<Reply<T>>): Promise<Reply<T>> {
    setBusy(true);
    setError(null);
    const reply = await task();
    noteReply(reply);
    setBusy(false);
    if (!reply.ok) setError(reply.error);
    return reply;
  }
  return { busy, error, run };
}

/**
 * A list drawn at once from its cache while the worker refreshes it behind (only when it was never read whole,
 * if `ifMissing`). `list` is undefined until there is something to draw.
 */
export function useList<T>(
  item: StoredItem<Cached<T> | null>,
  refreshIntent: () => Promise<Reply<unknown>>,
  ifMissing = false,
) {
  const cached = useItem(item);
  const task = useTask();
  const refresh = () => task.run(refreshIntent);
  useEffect(() => {
    item.getValue().then((known) => {
      if (!known?.savedAt || !ifMissing) refresh();
    });
  }, []);
  return { list: cached?.data, savedAt: cached?.savedAt, task, refresh };
}

/**
 * The page's writes of its forms' drafts, one after another. Each reads all the drafts and writes them back, so two
 * at once lose one: a keep of the last keystroke that lands after the form's forget leaves the draft kept, and the
 * form reopens on it (a typed password then reads as lost).
 */
let draftWrites: Promise<void> = Promise.resolve();

function writeDraft(form: string, fields: Record<string, string> | null): Promise<void> {
  draftWrites = draftWrites
    .then(async () => {
      const { [form]: _, ...others } = await drafts.getValue();
      await drafts.setValue(fields ? { ...others, [form]: fields } : others);
    })
    .catch((error: unknown) => console.warn('Profile Pilot: a form draft could not be kept', error));
  return draftWrites;
}

/** Fields never kept, whatever the form: passwords and keys. */
const SECRETS = ['password', 'apiKey'];

/**
 * A form's fields as text, kept in session storage as they are typed, so that the popup, which closes as soon as
 * it loses focus, picks up where it was. Secrets (`secrets`, besides passwords and keys) are never kept, nor a
 * password inside a URL; `lost` names the secret fields that held something when the popup closed, to be typed
 * again.
 */
export function useDraft<T extends Record<string, string>>(
  form: string,
  initial: T,
  secrets: readonly (keyof T & string)[] = [],
) {
  const [draft, setDraft] = useState(initial);
  const [lost, setLost] = useState<string[]>([]);
  const typed = useRef(false);
  const neverKept = [...SECRETS, ...secrets];
  useEffect(() => {
    drafts.getValue().then((all) => {
      if (!all[form]) return;
      const kept = restore(all[form]);
      setDraft((current) => ({ ...current, ...kept.fields }));
      setLost(kept.lost);
    });
  }, [form]);
  useEffect(() => {
    // A secret lost before and not typed again is still lost if the popup closes again.
    const stillLost = Object.fromEntries(lost.map((name) => [name, 'lost']));
    if (typed.current) keep(keepable({ ...draft, ...stillLost }, neverKept));
  }, [draft]);
  const keep = (fields: Record<string, string> | null) => writeDraft(form, fields);
  function update(change: Partial<T>) {
    typed.current = true;
    setLost((names) => names.filter((name) => !(name in change)));
    setDraft((current) => ({ ...current, ...change }));
  }
  return {
    draft,
    update,
    /** The secret fields typed before the popup closed, which were not kept: ask for them again. */
    lost,
    /** Forgets the kept draft, once the form has done its job. */
    forget: () => keep(null),
    bind: (name: keyof T & string) => ({
      value: draft[name],
      onInput: (event: Event) =>
        update({ [name]: (event.currentTarget as HTMLInputElement).value } as Partial<T>),
    }),
  };
}

/** `value` once it has stopped changing for `ms`: what a search box asks for while the person types. */
export function useSettled<T>(value: T, ms: number): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** How long a copy button reads "Copied" before its own label comes back. */
const COPIED_SHOWN_MS = 2000;

/** Copies text to the clipboard; `copied` is true for a moment after, for the button to say so. */
export function useCopy(): { copied: boolean; copy(text: string): void } {
  const [copied, setCopied] = useState(false);
  return {
    copied,
    copy: (text) =>
      void navigator.clipboard.writeText(text).then(() => {
        setCopied(true);
        setTimeout(() => setCopied(false), COPIED_SHOWN_MS);
      }),
  };
}

/**
 * `/` pressed anywhere but in a field moves the focus to `field`, as on many sites' search; with `now` the focus
 * goes there at once (the view opened), unless something else has taken it (an outcome said as the view opens).
 */
export function useSearchKey(field: RefObject<HTMLInputElement>, now: boolean): void {
  useEffect(() => {
    const free = !document.activeElement || document.activeElement === document.body;
    if (now && free) field.current?.focus();
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== '/' || event.ctrlKey || event.metaKey || event.altKey || !field.current) return;
      if ((event.target as HTMLElement | null)?.closest?.('input, textarea, select, [contenteditable]'))
        return;
      event.preventDefault();
      field.current.focus();
    };
    document.addEventListener('keydown', onKey);
    return () => document.removeEventListener('keydown', onKey);
  }, []);
}
