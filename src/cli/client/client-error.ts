/** A failure of `publish`/`subscribe` with ntfy's message: printed on stderr, exit code 1. */
export class ClientError extends Error {}

/**
 * Wraps a command's action: any failure ends the process with its message and exit
 * code 1 (a server's error is its JSON body, as ntfy prints it).
 */
export function clientAction<A extends unknown[]>(action: (...args: A) => Promise<void>) {
  return async (...args: A): Promise<void> => {
    try {
      await action(...args);
    } catch (err) {
      process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
      // exit rather than exitCode: stdin (a password prompt, a piped message) may still be open.
      process.exit(1);
    }
  };
}

/** A file that cannot be opened, in Go's words: "open x.yml: no such file or directory". */
export function openError(file: string, err: unknown): ClientError {
  const code = (err as NodeJS.ErrnoException).code;
  return new ClientError(`open ${file}: ${code === 'ENOENT' ? 'no such file or directory' : (err as Error).message}`);
}
