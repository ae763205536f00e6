/** A task repeating on this node until stopped. */
export interface LocalTimer {
  /** Ends the repetition; resolves once a run under way has finished. */
  stop(): Promise<void>;
}

/**
 * Runs `task` every `everyMs` on this node, the first time one interval after the call,
 * never two runs at once (each interval is counted from the end of the run before). The
 * timer is unref'd, so it never keeps the process alive. `task` reports its own errors.
 */
export function repeatLocally(task: () => Promise<void>, everyMs: number): LocalTimer {
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
  let stopped = false;
  const next = (): void => {
    timer = setTimeout(() => {
      running = task().finally(() => {
        if (!stopped) next();
      });
    }, everyMs).unref();
  };
  next();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
