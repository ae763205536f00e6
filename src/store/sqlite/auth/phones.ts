import { AlreadyExists } from '../../auth-store.js';
import type { AuthFile } from './file.js';
import type { Users } from './users.js';

/** Users' verified phone numbers (table `phones`); they go with their user by the foreign key's cascade. */
export class Phones {
  constructor(
    private readonly file: AuthFile,
    private readonly users: Users,
  ) {}

  of(username: string): string[] {
    return this.file.remembered(`p\0${username}`, () => this.file.sql('SELECT number FROM phones WHERE user = ? ORDER BY number').pluck().all(username) as string[]);
  }

  add(username: string, number: string): void {
    this.users.mustExist(username);
    const added = this.file.write('INSERT OR IGNORE INTO phones (user, number) VALUES (?, ?)', username, number);
    if (added.changes === 0) throw new AlreadyExists(`user ${username} has phone number ${number} already`);
  }

  remove(username: string, number: string): void {
    this.file.write('DELETE FROM phones WHERE user = ? AND number = ?', username, number);
  }
}
