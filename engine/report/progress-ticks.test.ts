/**
 * The progress bar is told of every finished case (hundreds a second): they reach cli-progress in
 * batches, at most every TICK_EVERY_MS or when the property changes, and every one by stop(), so
 * the count it shows is the same (no terminal, no database).
 */
import { PassThrough } from 'node:stream';
import cliProgress from 'cli-progress';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { progressBar } from './console.ts';

afterEach(() => vi.restoreAllMocks());

function quietStream(): NodeJS.WriteStream {
  const stream = new PassThrough() as unknown as NodeJS.WriteStream;
  stream.resume();
  return Object.assign(stream, { isTTY: false });
}

describe('progress ticks', () => {
  it('a thousand cases of one property, then one of another: a handful of increments, each case counted once, with its property', () => {
    const increments: [number, string][] = [];
    vi.spyOn(cliProgress.SingleBar.prototype, 'increment').mockImplementation(function (this: unknown, step?: unknown, payload?: unknown) {
      increments.push([step as number, (payload as { property: string }).property]);
    });
    const bar = progressBar(1001, quietStream());
    for (let i = 0; i < 1000; i++) bar.tick('R01');
    bar.tick('R02');
    bar.stop();
    expect(increments.length).toBeLessThan(10);
    expect(increments.reduce((n, [step]) => n + step, 0)).toBe(1001);
    expect(increments.filter(([, p]) => p === 'R02')).toEqual([[1, 'R02']]);
    expect(increments.filter(([, p]) => p === 'R01').reduce((n, [step]) => n + step, 0)).toBe(1000);
  });
});
