/** Things to stop or remove after a file's tests, in the reverse order they were started, whatever failed. */
export function cleanupStack() {
  const tasks: (() => unknown)[] = [];
  return {
    /** Registers `close` for `resource` and gives the resource back. */
    add<T>(resource: T, close: (resource: T) => unknown): T {
      tasks.push(() => close(resource));
      return resource;
    },
    async run(): Promise<void> {
      for (const task of tasks.splice(0).reverse()) {
        try {
          await task();
        } catch (error) {
          console.warn('e2e clean-up:', error);
        }
      }
    },
  };
}
