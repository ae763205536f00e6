/** Lines typed on stdin; on a terminal in raw mode, so nothing typed is shown. */
export function stdinLines(): { next(): Promise<string>; close(): void } {
  const stdin = process.stdin;
  if (stdin.isTTY) stdin.setRawMode(true);
  let buffered = '';
  let waiting: ((line: string) => void) | undefined;
  const deliver = (): void => {
    const end = buffered.search(/[\r\n]/);
    if (end < 0 || !waiting) return;
    const line = buffered.slice(0, end);
    buffered = buffered.slice(end + (buffered.startsWith('\r\n', end) ? 2 : 1));
    const resolve = waiting;
    waiting = undefined;
    resolve(line);
  };
  const onData = (chunk: Buffer): void => {
    if (chunk.includes(3)) {
      process.stderr.write('\n'); // Ctrl-C in raw mode
      process.exit(130);
    }
    buffered += chunk.toString('utf8');
    deliver();
  };
  stdin.on('data', onData);
  stdin.once('end', () => {
    buffered += '\n';
    deliver();
  });
  return {
    next: () =>
      new Promise<string>((resolve) => {
        waiting = resolve;
        deliver();
      }),
    close: () => {
      stdin.off('data', onData);
      if (stdin.isTTY) stdin.setRawMode(false);
      stdin.pause();
    },
  };
}
