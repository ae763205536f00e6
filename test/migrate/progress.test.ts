import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Progress, type ProgressOutput } from '../../src/migrate/progress.js';

function output(isTTY: boolean): ProgressOutput & { text: string } {
  return { isTTY, text: '', write(t: string) { this.text += t; } };
}

describe('import progress', () => {
  it('plain output — a line per tenth of the way and one at the end', () => {
    const out = output(false);
    const p = new Progress(out, 'messages', 1000);
    for (let i = 0; i < 100; i++) p.advance(10);
    p.finish();
    const lines = out.text.trimEnd().split('\n');
    assert.equal(lines.length, 10);
    assert.deepEqual([lines[0], lines[8], lines[9]], ['messages: 100/1000 (10%)', 'messages: 900/1000 (90%)', 'messages: 1000/1000 (100%)']);
  });

  it('a terminal — a bar redrawn in place, at most every 100 ms, ending with a newline', () => {
    const out = output(true);
    let clock = 1000;
    const p = new Progress(out, 'messages', 200, () => clock);
    p.advance(50);
    p.advance(50);
    clock += 100;
    p.advance(50);
    p.finish();
    const draws = out.text.split('\r').filter(Boolean);
    assert.deepEqual(draws, [
      `messages [${'#'.repeat(8)}${'.'.repeat(22)}] 25% 50/200`,
      `messages [${'#'.repeat(23)}${'.'.repeat(7)}] 75% 150/200`,
      `messages [${'#'.repeat(23)}${'.'.repeat(7)}] 75% 150/200\n`,
    ]);
  });

  it('nothing to read — finishes at 100%', () => {
    const out = output(false);
    new Progress(out, 'messages', 0).finish();
    assert.equal(out.text, 'messages: 0/0 (100%)\n');
  });
});
