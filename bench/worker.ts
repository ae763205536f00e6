import { fork, type ChildProcess } from 'node:child_process';
import { pin } from './proc.js';

/**
 * A load process: the harness drives it with request/reply messages over IPC, so the load
 * runs outside the harness and outside the server, pinned to the load core.
 */
export class Worker {
  private readonly child: ChildProcess;
  private nextId = 0;
  private readonly pending = new Map<number, { resolve(v: unknown): void; reject(e: Error): void }>();

  constructor(script: string, core: number) {
    this.child = fork(new URL(script, import.meta.url).pathname, [], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    pin(this.child.pid, core);
    this.child.on('message', (msg: { id: number; result?: unknown; error?: string }) => {
      const waiter = this.pending.get(msg.id);
      this.pending.delete(msg.id);
      if (msg.error) waiter?.reject(new Error(msg.error));
      else waiter?.resolve(msg.result);
    });
    this.child.on('exit', () => {
      for (const waiter of this.pending.values()) waiter.reject(new Error(`${script} exited`));
      this.pending.clear();
    });
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  call<T>(command: string, args: unknown = {}, timeoutMs = 120_000): Promise<T> {
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${command} timed out`)), timeoutMs);
      this.pending.set(id, {
        resolve: (v) => (clearTimeout(timer), resolve(v as T)),
        reject: (e) => (clearTimeout(timer), reject(e)),
      });
      this.child.send({ id, command, args });
    });
  }

  stop(): void {
    this.child.kill('SIGKILL');
  }
}

type Handler = (args: never) => unknown;

/** The worker side: answers each command with its handler's result. */
export function serveCommands(handlers: Record<string, Handler>): void {
  process.on('message', (msg: { id: number; command: string; args: never }) => {
    const handler = handlers[msg.command];
    Promise.resolve()
      .then(() => {
        if (!handler) throw new Error(`unknown command ${msg.command}`);
        return handler(msg.args);
      })
      .then(
        (result) => process.send?.({ id: msg.id, result }),
        (err: unknown) => process.send?.({ id: msg.id, error: String(err) }),
      );
  });
  process.on('disconnect', () => process.exit(0));
}
