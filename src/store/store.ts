import type { AgendaBackend } from 'agenda';
import type { MessageCache } from './message-cache.js';

/**
 * Everything Tocsin persists about messages, behind ports: the message cache and the
 * scheduler's jobs (Agenda's own backend interface, whose contract is Agenda's). The
 * embedded store puts both in one SQLite file; the scale-out store will put them in
 * MongoDB. Nothing outside src/store knows which runs. Contract:
 * - The cache and the jobs live and die together (one file, one database): a scheduled
 *   message is never kept without its job, nor a job without its store. A job whose
 *   message was replaced or deleted finds nothing to release (see `MessageCache.release`).
 * - `close` is called once, after the scheduler stopped and the publisher drained; it
 *   waits for nothing in flight, and nothing is called after it.
 */
export interface Store {
  cache: MessageCache;
  jobs: AgendaBackend;
  close(): Promise<void>;
}
