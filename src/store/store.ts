import type { AgendaBackend } from 'agenda';
import type { MessageCache } from './message-cache.js';

/**
 * Everything Tocsin persists, behind ports: the message cache and the scheduler's jobs
 * (Agenda's own backend interface). The embedded store puts both in one SQLite file; the
 * scale-out store will put them in MongoDB. Nothing outside src/store knows which runs.
 */
export interface Store {
  cache: MessageCache;
  jobs: AgendaBackend;
  close(): Promise<void>;
}
