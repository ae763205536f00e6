interface Task {
  run: () => void;
  cancelled: boolean;
}

const tasks: Task[] = [];
let scheduled = false;

/**
 * Runs `task` at the end of the current event-loop turn: in this turn's check phase, after
 * the poll phase handled every readable socket. A task queued by another task, or by the
 * microtasks it started, runs in the same check phase right after them, not a turn later
 * as a setImmediate queued from there would.
 *
 * This is what lines the group commit and the fan-out up: the commit (groupCommit) runs at
 * the turn's end, its publishers are answered in its microtasks, and the subscribers'
 * writes (TurnFlusher) follow at once. With a setImmediate for the writes, a poll phase
 * came between the answers and the writes and took in only the first of the publishers'
 * next requests, which split each turn's messages over two writes per subscriber
 * (1,000 SSE subscribers at rate=max: 2.7 deliveries per send() instead of the ceiling's
 * 3.5, and 25% more CPU per delivery). A task never runs inside a uWS callback, where
 * writes to other responses could not be corked. Returns a function that cancels the task.
 */
export function atTurnEnd(run: () => void): () => void {
  const task = { run, cancelled: false };
  tasks.push(task);
  if (!scheduled) {
    scheduled = true;
    setImmediate(runNext);
  }
  return () => {
    task.cancelled = true;
  };
}

function runNext(): void {
  const task = tasks.shift();
  if (!task) {
    scheduled = false;
    return;
  }
  // The next task after this one's microtasks: a tick queued from a microtask runs once
  // the microtask queue is empty (Node's processTicksAndRejections).
  queueMicrotask(() => process.nextTick(runNext));
  if (!task.cancelled) task.run();
}
