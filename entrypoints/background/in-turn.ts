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

/** Gives a stored item the value `next` makes of its current one, in turn. */
export function change<T>(item: Stored<T>, next: (value: T) => T): Promise<void> {
  return inTurn(async () => item.setValue(next(await item.getValue())));
}
