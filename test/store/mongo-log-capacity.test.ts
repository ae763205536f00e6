import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MongoServerError, type Db, type Document } from 'mongodb';
import { cappedSize, fitCapSize } from '../../src/store/mongo/log-capacity.js';
import { MessageLog } from '../../src/store/mongo/message-log.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { connect, ferretDb } from '../support/mongo-nodes.js';
import { serveUntilExit, spawnServer } from '../support/server.js';

/** A Db whose `command` records what it is sent and answers with `answer`. */
function commandDb(answer: (command: Document) => Document): { db: Db; sent: Document[] } {
  const sent: Document[] = [];
  const db = { command: (command: Document) => (sent.push(command), Promise.resolve().then(() => answer(command))) } as unknown as Db;
  return { db, sent };
}

describe('MongoDB log — cache-size-limit on an existing log (test double of the driver: FerretDB has no collMod)', () => {
  it('a changed size is applied with collMod cappedSize, and said', async () => {
    const { db, sent } = commandDb(() => ({ ok: 1 }));
    const resized: [number, number][] = [];
    await fitCapSize(db, 'messages', 1 << 20, 2 << 20, (from, to) => resized.push([from, to]));
    assert.deepEqual(sent, [{ collMod: 'messages', cappedSize: 2 << 20 }]);
    assert.deepEqual(resized, [[1 << 20, 2 << 20]]);
  });

  it('the same size, as MongoDB rounded it, sends nothing', async () => {
    const { db, sent } = commandDb(() => ({ ok: 1 }));
    for (const [current, wanted] of [[1 << 20, 1 << 20], [4096, 1000], [1280, 1280], [10_240, 10_001]]) {
      await fitCapSize(db, 'messages', current as number, wanted as number, () => assert.fail('resized'));
    }
    assert.deepEqual(sent, []);
    assert.deepEqual([cappedSize(1), cappedSize(4096), cappedSize(4097), cappedSize(10_001)], [4096, 4096, 4352, 10_240]);
  });

  it('a server that refuses collMod (MongoDB before 6.0) stops the opening, naming both sizes and what to do', async () => {
    const { db } = commandDb(() => {
      throw new MongoServerError({ code: 72, codeName: 'InvalidOptions', errmsg: "unknown option to collMod: cappedSize" });
    });
    await assert.rejects(fitCapSize(db, 'messages', 1 << 20, 3 << 20, () => assert.fail('resized')), (err: Error) => {
      assert.match(err.message, /^cache-size-limit is 3145728 bytes, but the message log \(collection "messages"\) is capped at 1048576 bytes/);
      assert.match(err.message, /unknown option to collMod: cappedSize/);
      assert.match(err.message, /Set cache-size-limit to 1048576 to keep the log as it is/);
      return true;
    });
  });

  it('with several logs, the sizes it names are cache-size-limit\'s, shared by the logs', async () => {
    const { db } = commandDb(() => {
      throw new MongoServerError({ code: 72, codeName: 'InvalidOptions', errmsg: 'unknown option to collMod: cappedSize' });
    });
    await assert.rejects(fitCapSize(db, 'messages_2', 1 << 20, 3 << 20, () => assert.fail('resized'), 4), (err: Error) => {
      assert.match(err.message, /^cache-size-limit is 12582912 bytes \(3145728 for each of its 4 logs\), but the message log \(collection "messages_2"\) is capped at 1048576 bytes/);
      assert.match(err.message, /Set cache-size-limit to 4194304 to keep the log as it is/);
      return true;
    });
  });
});

describe('MongoDB log — cache-size-limit on an existing log, on FerretDB', { skip: ferretDbSkip(), timeout: 60_000 }, () => {
  it('MessageLog.open: the same size opens, another is refused (FerretDB has no collMod) and the log is left as it was', async () => {
    const db = (await connect()).db((await ferretDb()).databaseName('capacity'));
    await MessageLog.open(db, 1 << 20);
    await MessageLog.open(db, 1 << 20);
    await assert.rejects(MessageLog.open(db, 2 << 20), /^Error: cache-size-limit is 2097152 bytes, but the message log \(collection "messages"\) is capped at 1048576 bytes and this server cannot resize it \(collMod cappedSize: .*not implemented/);
    const [info] = await db.listCollections({ name: 'messages' }).toArray();
    assert.deepEqual(info && 'options' in info ? [info.options?.capped, info.options?.size] : [], [true, 1 << 20]);
  });

  it('a server started again on its database with another cache-size-limit stops, saying so; with the first it starts', async () => {
    const ferret = await ferretDb();
    const url = ferret.url.replace('/?', `/${ferret.databaseName('restart')}?`);
    const first = await spawnServer(['--database-url', url, '--cache-size-limit', '2M']);
    first.child.kill('SIGTERM');
    await first.exited;
    const refused = await serveUntilExit(['--database-url', url, '--cache-size-limit', '3M']);
    assert.notEqual(refused.code, 0);
    assert.match(refused.stderr, /cache-size-limit is 3145728 bytes, but the message log \(collection "messages"\) is capped at 2097152 bytes and this server cannot resize it/);
    const again = await spawnServer(['--database-url', url, '--cache-size-limit', '2M']);
    assert.equal((await fetch(`${again.url}/v1/health`)).status, 200);
    again.child.kill('SIGTERM');
    await again.exited;
  });
});
