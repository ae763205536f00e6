interface Row {
  read: number;
  added: number;
  /** Why records read were not written, with how many each. */
  skipped: Map<string, number>;
}

/**
 * The counts of an import, per kind of record: read from the source, added to Tocsin (or,
 * in a dry run, that would be added), and skipped with the reason. A record already in
 * Tocsin is skipped as `already there`, which is what makes a second run add nothing.
 */
export class Summary {
  private readonly rows = new Map<string, Row>();

  read(kind: string, count = 1): void {
    this.row(kind).read += count;
  }

  added(kind: string, count = 1): void {
    this.row(kind).added += count;
  }

  skipped(kind: string, why: string, count = 1): void {
    if (count === 0) return;
    const { skipped } = this.row(kind);
    skipped.set(why, (skipped.get(why) ?? 0) + count);
  }

  /** What was read of `kind`. */
  readOf(kind: string): number {
    return this.rows.get(kind)?.read ?? 0;
  }

  /** What was added of `kind` (tests and the bench read it). */
  addedOf(kind: string): number {
    return this.rows.get(kind)?.added ?? 0;
  }

  lines(dryRun: boolean): string[] {
    const width = Math.max(...[...this.rows.keys()].map((k) => k.length));
    return [...this.rows].map(([kind, { read, added, skipped }]) => {
      const reasons = [...skipped].map(([why, n]) => `, ${n} ${why}`).join('');
      return `${kind.padEnd(width)}  ${read} read, ${added} ${dryRun ? 'to add' : 'added'}${reasons}`;
    });
  }

  private row(kind: string): Row {
    let row = this.rows.get(kind);
    if (!row) {
      row = { read: 0, added: 0, skipped: new Map() };
      this.rows.set(kind, row);
    }
    return row;
  }
}
