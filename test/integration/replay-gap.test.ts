import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { RawValues } from '../../src/config/load.js';
import { LineStream, publish, SseStream, WsStream, type Json } from '../support/clients.js';
import { ferretDbSkip } from '../support/ferretdb.js';
import { LogCapture } from '../support/log.js';
import { ferretDb } from '../support/mongo-nodes.js';
import { freshDatabase, postgresSkip } from '../support/postgres.js';
import { startTestServer, type TestServer } from '../support/server.js';

/** Issue 37, item 2: a replay that cannot be complete says so first, in every format, on every backend. */

const gapOf = (topic: string, since: string): Json => ({ event: 'replay_gap', topic, since });
/** What a test compares of an event: a gap's fields, a message's id, an open's event. */
const shape = (e: Json): Json => (e.event === 'replay_gap' ? { event: e.event, topic: e.topic, since: e.since } : e.event === 'message' ? { id: e.id } : { event: e.event });
const ids = (list: string[]): Json[] => list.map((id) => ({ id }));
const lines = (text: string): Json[] => text.trimEnd().split('\n').map((line) => shape(JSON.parse(line) as Json));

/** The JSON stream's events up to `count`, the open event included. */
async function jsonEvents(url: string, count: number): Promise<Json[]> {
  const stream = new LineStream(url);
  const got: Json[] = [];
  while (got.length < count) got.push(shape(await stream.nextJson()));
  stream.close();
  return got;
}

/** A server on a backend (its settings), with a 1 s housekeeping and max-messages 2 for gap-capped*, whose log is captured. */
class GapServer {
  readonly log = new LogCapture();
  private server: TestServer | undefined;

  async start(settings: RawValues): Promise<void> {
    this.server = await startTestServer({ ...settings, 'manager-interval': '1s', 'topic-retention': [{ topic: 'gap-capped*', 'max-messages': 2 }] }, this.log.logger);
  }

  get url(): string {
    return (this.server as TestServer).url;
  }

  close(): Promise<void> | undefined {
    return this.server?.server.close();
  }

  async publishAll(topic: string, bodies: string[], headers: Record<string, string> = {}): Promise<Json[]> {
    const sent: Json[] = [];
    for (const body of bodies) sent.push((await publish(`${this.url}/${topic}`, body, headers)).json);
    return sent;
  }

  /** Waits for a shared housekeeping run that pruned or trimmed (started after `from`). */
  async housekept(from: number, what: 'pruned' | 'trimmed'): Promise<void> {
    await this.log.after(from, (r) => r.msg === 'shared housekeeping' && (r[what] as number) > 0, 10_000);
  }

  /** A topic with a message pruned after its 1 s TTL, then two that are kept. */
  async prunedTopic(topic: string): Promise<{ gone: string; kept: string[]; goneTime: number }> {
    const from = this.log.records.length;
    const [gone] = (await this.publishAll(topic, ['short-lived'], { 'X-TTL': '1s' })) as [Json];
    await this.housekept(from, 'pruned');
    const kept = await this.publishAll(topic, ['one', 'two']);
    return { gone: gone.id as string, goneTime: gone.time as number, kept: kept.map((m) => m.id as string) };
  }
}

function describeReplayGaps(backend: string, skip: string | false, settings: () => Promise<RawValues>): void {
  describe(`replay gap — ${backend}`, { skip }, () => {
    const s = new GapServer();
    before(async () => s.start(await settings()));
    after(() => s.close());

    describe('pruned messages', () => {
      let topic: { gone: string; kept: string[]; goneTime: number };
      before(async () => {
        topic = await s.prunedTopic('gap-pruned');
      });

      it('json: since=<a pruned id> sends open, replay_gap, then the replay of what is kept', async () => {
        const got = await jsonEvents(`${s.url}/gap-pruned/json?since=${topic.gone}`, 4);
        assert.deepEqual(got, [{ event: 'open' }, gapOf('gap-pruned', topic.gone), ...ids(topic.kept)]);
      });

      it('sse: the gap is an event of its own, without an id: line; Last-Event-ID names the pruned message as since= does', async () => {
        const stream = new SseStream(`${s.url}/gap-pruned/sse`, { headers: { 'Last-Event-ID': topic.gone } });
        assert.equal((await stream.next()).event, 'open');
        const gap = await stream.next();
        assert.deepEqual([gap.event, gap.id, shape(JSON.parse(gap.data) as Json)], ['replay_gap', undefined, gapOf('gap-pruned', topic.gone)]);
        assert.deepEqual([(await stream.next()).id, (await stream.next()).id], topic.kept);
        stream.close();
      });

      it('ws: the gap is a frame of its own after open', async () => {
        const ws = new WsStream(`${s.url}/gap-pruned/ws?since=${topic.gone}`);
        const got = [];
        for (let i = 0; i < 4; i++) got.push(shape(await ws.next()));
        ws.close();
        assert.deepEqual(got, [{ event: 'open' }, gapOf('gap-pruned', topic.gone), ...ids(topic.kept)]);
      });

      it('raw: nothing for the gap, which a raw reader would take for a message', async () => {
        const stream = new LineStream(`${s.url}/gap-pruned/raw?since=${topic.gone}`);
        assert.deepEqual([await stream.next(), await stream.next(), await stream.next()], ['', 'one', 'two']);
        stream.close();
      });

      it('polls: json and ws carry the gap first, raw does not', async () => {
        const polled = await (await fetch(`${s.url}/gap-pruned/json?poll=1&since=${topic.gone}`)).text();
        assert.deepEqual(lines(polled), [gapOf('gap-pruned', topic.gone), ...ids(topic.kept)]);
        assert.equal(await (await fetch(`${s.url}/gap-pruned/raw?poll=1&since=${topic.gone}`)).text(), 'one\ntwo\n');
        const ws = new WsStream(`${s.url}/gap-pruned/ws?poll=1&since=${topic.gone}`);
        assert.deepEqual([shape(await ws.next()), shape(await ws.next()), shape(await ws.next())], [gapOf('gap-pruned', topic.gone), ...ids(topic.kept)]);
        assert.equal(await ws.waitClosed(), 1000);
      });

      it('since=<time> before the pruned message has a gap; after it, since=all and since=<a kept id> have none', async () => {
        const since = String(topic.goneTime - 5);
        assert.deepEqual(await jsonEvents(`${s.url}/gap-pruned/json?since=${since}`, 4), [{ event: 'open' }, gapOf('gap-pruned', since), ...ids(topic.kept)]);
        const complete = [{ event: 'open' }, ...ids(topic.kept)];
        assert.deepEqual(await jsonEvents(`${s.url}/gap-pruned/json?since=all`, 3), complete);
        assert.deepEqual(await jsonEvents(`${s.url}/gap-pruned/json?since=${String(topic.goneTime + 1)}`, 3), complete, 'since a time after the pruned message');
        assert.deepEqual(lines(await (await fetch(`${s.url}/gap-pruned/json?poll=1&since=${topic.kept[0] as string}`)).text()), ids(topic.kept.slice(1)));
      });

      it('an unknown id: a gap where a drop is recorded, none where nothing was dropped; both replay everything kept', async () => {
        assert.deepEqual(await jsonEvents(`${s.url}/gap-pruned/json?since=nosuchid0000`, 4), [{ event: 'open' }, gapOf('gap-pruned', 'nosuchid0000'), ...ids(topic.kept)]);
        const fresh = await s.publishAll('gap-fresh', ['a', 'b']);
        assert.deepEqual(await jsonEvents(`${s.url}/gap-fresh/json?since=nosuchid0000`, 3), [{ event: 'open' }, ...ids(fresh.map((m) => m.id as string))]);
      });

      it('several topics: a gap event for each topic that has one, naming it', async () => {
        const [fresh] = (await s.publishAll('gap-fresh2', ['x'])) as [Json];
        const since = String(topic.goneTime - 5);
        const got = await jsonEvents(`${s.url}/gap-pruned,gap-fresh2/json?since=${since}`, 5);
        assert.deepEqual(got.slice(0, 2), [{ event: 'open' }, gapOf('gap-pruned', since)]);
        assert.deepEqual(new Set(got.slice(2).map((e) => e.id)), new Set([...topic.kept, fresh.id]));
      });
    });

    describe('trimmed by max-messages', () => {
      it('since=<a trimmed id> has a gap; since=<the oldest kept> has none', async () => {
        const from = s.log.records.length;
        const [first, second, third] = (await s.publishAll('gap-capped', ['1', '2', '3'])).map((m) => m.id as string) as [string, string, string];
        await s.housekept(from, 'trimmed');
        assert.deepEqual(await jsonEvents(`${s.url}/gap-capped/json?since=${first}`, 4), [{ event: 'open' }, gapOf('gap-capped', first), ...ids([second, third])]);
        assert.deepEqual(lines(await (await fetch(`${s.url}/gap-capped/json?poll=1&since=${second}`)).text()), ids([third]));
      });
    });
  });
}

describeReplayGaps('SQLite', false, async () => ({}));
describeReplayGaps('PostgreSQL', postgresSkip(), async () => ({ 'database-url': await freshDatabase('gaps') }));
describeReplayGaps('MongoDB', ferretDbSkip(), async () => {
  const server = await ferretDb();
  return { 'database-url': server.url.replace('/?', `/${server.databaseName('gaps')}?`) };
});
