/**
 * A write the store could not make, so nothing of it was stored: the disk (or a quota) is
 * full (`full`), or the store cannot be written at all (read-only, I/O errors, locked).
 * Every store implementation reports its own failures as this, so the transports answer
 * them (507 or 503, ntfy-style codes) without knowing which store runs. The write can
 * succeed again once the cause is gone: nothing is left half-done.
 */
export class StoreWriteError extends Error {
  constructor(
    readonly full: boolean,
    cause: unknown,
  ) {
    super(`${full ? 'store full' : 'store not writable'}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreWriteError';
  }
}

/**
 * A read the store could not make because it cannot be reached (a database server lost,
 * no primary, no answer in time): the request is answered 503 and may be tried again.
 */
export class StoreUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`store unavailable: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = 'StoreUnavailableError';
  }
}
