import { describe, expect, it } from 'vitest';
import { onShutdown, stopAll } from './cleanup.ts';

describe('stopAll', () => {
  it('also stops what was started while it was stopping (a start-up still under way when the signal came)', async () => {
    const stopped: string[] = [];
    let startLate!: () => void;
    const lateStart = new Promise<void>((resolve) => (startLate = resolve));
    // A start-up that goes on meanwhile: it registers its stop only once the first stop is under way.
    const startUp = lateStart.then(() => onShutdown(async () => void stopped.push('started late')));
    const unregister = onShutdown(async () => {
      startLate();
      await startUp;
      stopped.push('server');
    });
    await stopAll();
    unregister();
    expect(stopped).toEqual(['server', 'started late']);
  });
});
