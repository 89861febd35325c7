/** Passes of some work, one at a time whoever asks for them. */
export interface Passes {
  /** Starts a pass, or, while one runs, asks for one more after it; resolves when the passes asked for are done. */
  run(): Promise<void>;
  /** The passes under way, if any. */
  running(): Promise<void> | null;
}

/**
 * Runs `pass` one at a time: a call while it runs shares its promise and has it go once more after, as long as
 * `goOn` allows, so whatever came while it ran is seen by a pass that started after it came.
 */
export function onePassAtATime(pass: () => Promise<void>, goOn: () => boolean = () => true): Passes {
  let running: Promise<void> | null = null;
  let again = false;
  return {
    run() {
      if (running) {
        again = true;
        return running;
      }
      running = (async () => {
        try {
          do {
            again = false;
            await pass();
          } while (again && goOn());
        } finally {
          running = null;
        }
      })();
      return running;
    },
    running: () => running,
  };
}
