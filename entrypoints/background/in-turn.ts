let last: Promise<unknown> = Promise.resolve();

/**
 * Runs the worker's read-modify-writes of extension storage one after another, whoever asks: the worker is
 * the only writer of shared state, and with one queue no update can overwrite another it did not see. A write
 * given here must not itself wait on `inTurn`.
 */
export function inTurn<T>(write: () => Promise<T>): Promise<T> {
  const done = last.then(write);
  last = done.catch(() => undefined);
  return done;
}

export interface Stored<T> {
  getValue(): Promise<T>;
  setValue(value: T): Promise<void>;
}

/** How many changes each stored item has had, to tell a list read before one from a list read after. */
const changes = new WeakMap<object, number>();
const changesOf = (item: object) => changes.get(item) ?? 0;

/** Counts a change of `item`; call it in turn, with the write. */
export function changed(item: object): void {
  changes.set(item, changesOf(item) + 1);
}

/** Gives a stored item the value `next` makes of its current one, in turn. */
export function change<T>(item: Stored<T>, next: (value: T) => T): Promise<void> {
  return inTurn(async () => {
    changed(item);
    await item.setValue(next(await item.getValue()));
  });
}

/**
 * Reads a whole list of `item` from the service and saves it with `save`, in turn. A change of `item` that landed
 * while the list was on its way (a save's answer, an event) may be newer than the list, which would put the old
 * entry back: the list is then read again, twice at most before it is saved anyway.
 */
export async function readWhole<A>(
  item: object,
  read: () => Promise<A>,
  save: (answer: A) => Promise<void>,
): Promise<void> {
  for (let tries = 0; ; tries++) {
    const seen = changesOf(item);
    const answer = await read();
    const saved = await inTurn(async () => {
      if (tries < 2 && changesOf(item) !== seen) return false;
      await save(answer);
      return true;
    });
    if (saved) return;
  }
}
