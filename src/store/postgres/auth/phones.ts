import { AlreadyExists } from '../../auth-store.js';
import type { AuthDb } from './auth-db.js';
import type { Users } from './users.js';

/** Users' verified phone numbers (table `phones`); they go with their user by the foreign key's cascade. */
export class Phones {
  constructor(
    private readonly db: AuthDb,
    private readonly users: Users,
  ) {}

  of(username: string): Promise<string[]> {
    return this.db.remembered(`ph\0${username}`, async () => (await this.db.rows<{ number: string }>('SELECT number FROM phones WHERE user_name = $1 ORDER BY number', [username])).map((r) => r.number));
  }

  async add(username: string, number: string): Promise<void> {
    const added = await this.db.change(async (c) => {
      await this.users.mustExist(c, username);
      return c.query('INSERT INTO phones (user_name, number) VALUES ($1, $2) ON CONFLICT DO NOTHING', [username, number]);
    });
    if (added.rowCount === 0) throw new AlreadyExists(`user ${username} has phone number ${number} already`);
  }

  async remove(username: string, number: string): Promise<void> {
    await this.db.change((c) => c.query('DELETE FROM phones WHERE user_name = $1 AND number = $2', [username, number]));
  }
}
