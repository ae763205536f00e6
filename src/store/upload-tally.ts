import type { Usage } from './attachment-store.js';

interface Count {
  /** Uploads in progress. */
  uploads: number;
  /** Bytes they hold. */
  writing: number;
  /** Bytes uploads committed; only grows, so an upload reads what was added since it began. */
  committed: number;
}

/** One upload as the tally counts it; the AttachmentStore's part of a FileUpload. */
export interface TalliedUpload {
  /** Bytes written so far. */
  readonly size: number;
  /** The committed usage read when the upload began, plus what this instance's uploads added since. */
  readonly usage: Usage;
  /** `bytes` more were written. */
  add(bytes: number): void;
  /** The upload is over: its bytes now count in the store (`kept`), or are gone. Only the first call counts. */
  end(kept: boolean): void;
}

/**
 * This instance's uploads in progress, counted as their bytes arrive, per owner and in
 * all: what an AttachmentStore adds to the committed usage it reads once when an upload
 * begins, so the upload checks its limits on every chunk without I/O, and uploads running
 * at once see each other (see Usage). An owner's entry lives while it has an upload in
 * progress, so the table is bounded by the uploads running.
 */
export class UploadTally {
  private readonly owners = new Map<string, Count>();
  private readonly all: Count = { uploads: 0, writing: 0, committed: 0 };

  /**
   * Counts an upload of `owner` from now on, then reads the committed usage with
   * `readCommitted`. Counting first means a file this instance commits while that read is
   * under way is counted twice for the upload's life rather than missed.
   */
  async begin(owner: string, readCommitted: () => Promise<Usage>): Promise<TalliedUpload> {
    const own = this.owners.get(owner) ?? { uploads: 0, writing: 0, committed: 0 };
    this.owners.set(owner, own);
    const upload = new Tallied(own, this.all, () => {
      if (own.uploads === 0) this.owners.delete(owner);
    });
    try {
      upload.committedAtStart = await readCommitted();
    } catch (err) {
      upload.end(false);
      throw err;
    }
    return upload;
  }

  /** Bytes this instance's uploads in progress hold for `owner`, or in all. */
  writing(owner?: string): number {
    return (owner === undefined ? this.all : this.owners.get(owner))?.writing ?? 0;
  }
}

class Tallied implements TalliedUpload {
  size = 0;
  committedAtStart: Usage = { owner: 0, total: 0 };
  private readonly committedBefore: Usage;
  private ended = false;

  constructor(
    private readonly own: Count,
    private readonly all: Count,
    private readonly onEnd: () => void,
  ) {
    own.uploads++;
    all.uploads++;
    this.committedBefore = { owner: own.committed, total: all.committed };
  }

  get usage(): Usage {
    const { own, all, committedAtStart: read, committedBefore: before } = this;
    return {
      owner: read.owner + own.writing + own.committed - before.owner,
      total: read.total + all.writing + all.committed - before.total,
    };
  }

  add(bytes: number): void {
    this.size += bytes;
    this.own.writing += bytes;
    this.all.writing += bytes;
  }

  end(kept: boolean): void {
    if (this.ended) return;
    this.ended = true;
    for (const count of [this.own, this.all]) {
      count.writing -= this.size;
      if (kept) count.committed += this.size;
      count.uploads--;
    }
    this.onEnd();
  }
}
