import { humanSize } from '../go-format.js';

/**
 * One line of an upload's progress: "[=========>          ]  45%  1.2 MB / 2.6 MB",
 * `width` characters of bar.
 */
export function progressLine(sent: number, total: number, width = 30): string {
  const fraction = total > 0 ? Math.min(sent / total, 1) : 1;
  const filled = Math.round(fraction * width);
  const bar = filled >= width ? '='.repeat(width) : `${'='.repeat(Math.max(filled - 1, 0))}${filled > 0 ? '>' : ''}${' '.repeat(width - filled)}`;
  return `[${bar}] ${String(Math.floor(fraction * 100)).padStart(3)}%  ${humanSize(sent)} / ${humanSize(total)}`;
}

// Redraw at most 10 times a second: a fast local upload would otherwise spend its time drawing.
const redrawMs = 100;

/**
 * A progress bar for an upload of `total` bytes on `out`, drawn only when `out` is a
 * terminal (a script's log gets no carriage-return noise). `done()` clears the line.
 */
export function progressBar(out: NodeJS.WriteStream, total: number): { update(sent: number): void; done(): void } {
  if (!out.isTTY) return { update: () => {}, done: () => {} };
  let drawnAt = 0;
  let drawn = false;
  return {
    update(sent) {
      const now = Date.now();
      if (sent < total && now - drawnAt < redrawMs) return;
      drawnAt = now;
      drawn = true;
      out.write(`\r${progressLine(sent, total)}`);
    },
    done() {
      if (drawn) out.write(`\r${' '.repeat(progressLine(total, total).length)}\r`);
    },
  };
}
