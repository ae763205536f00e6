/** Where progress goes: a terminal gets a bar redrawn in place, anything else plain lines. */
export interface ProgressOutput {
  isTTY?: boolean;
  write(text: string): unknown;
}

const barWidth = 30;
/** A terminal is redrawn at most this often: a redraw per batch would cost more than the batch. */
const redrawMs = 100;
/** Plain output gets a line per this share of the total, so a log holds ten lines, not a million. */
const lineEvery = 0.1;

/**
 * The progress of one long step (`label`, `total` items): a bar on a TTY, or a line at
 * every tenth of the way (and at the end) for a log or a pipe.
 */
export class Progress {
  private done = 0;
  private lastDraw = 0;
  private nextLine = lineEvery;

  constructor(
    private readonly out: ProgressOutput,
    private readonly label: string,
    private readonly total: number,
    private readonly now: () => number = Date.now,
  ) {}

  advance(count: number): void {
    this.done += count;
    if (this.out.isTTY) {
      if (this.now() - this.lastDraw >= redrawMs) this.draw();
      return;
    }
    const share = this.total === 0 ? 1 : this.done / this.total;
    if (share >= this.nextLine && this.done < this.total) {
      this.out.write(`${this.label}: ${this.done}/${this.total} (${Math.floor(share * 100)}%)\n`);
      this.nextLine = (Math.floor(share / lineEvery) + 1) * lineEvery;
    }
  }

  finish(): void {
    if (this.out.isTTY) {
      this.draw();
      this.out.write('\n');
    } else {
      this.out.write(`${this.label}: ${this.done}/${this.total} (100%)\n`);
    }
  }

  private draw(): void {
    this.lastDraw = this.now();
    const share = this.total === 0 ? 1 : Math.min(1, this.done / this.total);
    const filled = Math.round(share * barWidth);
    this.out.write(`\r${this.label} [${'#'.repeat(filled)}${'.'.repeat(barWidth - filled)}] ${Math.floor(share * 100)}% ${this.done}/${this.total}`);
  }
}
