import Database from 'better-sqlite3';
import type { Action } from '../../model/action.js';
import { messageJson, type Message } from '../../model/message.js';
import type { CacheEntry } from '../../store/message-cache.js';
import { cacheLayout, type CacheLayout } from './cache-schema.js';

/** A row as `cacheLayout`'s SELECT list reads it. */
type Row = [
  order: number, id: string, expires: number | null, time: number, topic: string, message: string, title: string,
  priority: number, tags: string, click: string, icon: string, actions: string, attachmentName: string,
  attachmentType: string, attachmentSize: number, attachmentExpires: number, attachmentUrl: string,
  attachmentDeleted: number, sender: string, user: string, contentType: string, encoding: string, published: number,
];

/** A cached ntfy message, as Tocsin will hold it, with what the import needs beside it. */
export interface NtfyMessage {
  entry: CacheEntry;
  /** ntfy's user id (`u_...`) of the publisher, or ''. */
  userId: string;
  /** The publisher's IP address, or '' (before ntfy 1.14 only uploads recorded it). */
  sender: string;
  /** The uploaded file is still in attachment-cache-dir (not deleted by ntfy's expiry). */
  fileKept: boolean;
}

/**
 * Reads an ntfy cache.db (read-only; any schema version ntfy shipped) in ntfy's commit
 * order, a page at a time, as Tocsin messages whose JSON is what ntfy served for them.
 */
export class CacheReader {
  readonly layout: CacheLayout;
  private readonly db: Database.Database;
  private readonly page: Database.Statement;

  constructor(
    readonly file: string,
    /** ntfy's cache-duration, which gives a message of a file before version 10 its expiry (ntfy's own migration). */
    private readonly cacheDurationSeconds: number,
  ) {
    this.db = new Database(file, { readonly: true, fileMustExist: true });
    try {
      this.layout = cacheLayout(this.db, file);
    } catch (err) {
      this.db.close();
      throw err;
    }
    const { select, order } = this.layout;
    this.page = this.db.prepare(`SELECT ${select} FROM messages WHERE ${order} > ? ORDER BY ${order} LIMIT ?`).raw(true);
  }

  count(): number {
    return this.db.prepare('SELECT COUNT(*) FROM messages').pluck().get() as number;
  }

  /** The total ntfy's /v1/stats reported (the `stats` table, from version 11); 0 before. */
  publishedTotal(): number {
    const hasStats = this.db.prepare("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'stats'").get() !== undefined;
    return hasStats ? ((this.db.prepare("SELECT value FROM stats WHERE key = 'messages'").pluck().get() as number | null | undefined) ?? 0) : 0;
  }

  /** Every message, `size` at a time, oldest commit first. */
  *pages(size: number): Generator<NtfyMessage[]> {
    let after = -1;
    for (;;) {
      const rows = this.page.all(after, size) as Row[];
      if (rows.length === 0) return;
      after = (rows[rows.length - 1] as Row)[0];
      yield rows.map((row) => this.toMessage(row));
    }
  }

  close(): void {
    this.db.close();
  }

  private toMessage(row: Row): NtfyMessage {
    const [, id, expires, time, topic, text, title, priority, tags, click, icon, actions, aName, aType, aSize, aExpires, aUrl, aDeleted, sender, user, contentType, encoding, published] = row;
    // ntfy's readMessage: empty columns are absent fields, an attachment needs a name and a URL.
    const m: Message = {
      id, time, expires: expires ?? time + this.cacheDurationSeconds, event: 'message', topic,
      ...(title && { title }),
      ...(text && { message: text }),
      ...(priority && { priority }),
      ...(tags && { tags: tags.split(',') }),
      ...(click && { click }),
      ...(icon && { icon }),
      ...(actions && { actions: JSON.parse(actions) as Action[] }),
      ...(aName && aUrl && { attachment: { name: aName, ...(aType && { type: aType }), ...(aSize && { size: aSize }), ...(aExpires && { expires: aExpires }), url: aUrl } }),
      ...(contentType && { content_type: contentType }),
      ...(encoding && { encoding }),
    };
    return {
      entry: { message: m, json: messageJson(m), published: published === 1 },
      userId: user,
      sender,
      fileKept: Boolean(aName && aSize && aDeleted === 0),
    };
  }
}
