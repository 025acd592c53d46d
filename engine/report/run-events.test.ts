import { describe, expect, it } from 'vitest';
import { RunEvents, type RunEvent, type RunReporter } from './run-events.ts';

const recorder = (name: string, seen: string[]): RunReporter => ({ on: (e) => void seen.push(`${name}:${e.type}`) });

describe('RunEvents', () => {
  it('delivers each event to every reporter in subscription order', () => {
    const seen: string[] = [];
    const bus = new RunEvents().subscribe(recorder('a', seen), recorder('b', seen));
    bus.emit({ type: 'generation-started', plannedCases: 3 });
    bus.emit({ type: 'generation-finished' });
    expect(seen).toEqual(['a:generation-started', 'b:generation-started', 'a:generation-finished', 'b:generation-finished']);
  });

  it('delivers an event a reporter emits only after every reporter has seen the current one', () => {
    const seen: string[] = [];
    const announcer: RunReporter = { on: (e, bus) => (e.type === 'generation-finished' ? bus.emit({ type: 'note', text: 'after' }) : undefined) };
    const bus = new RunEvents().subscribe(announcer, recorder('late', seen));
    bus.emit({ type: 'generation-finished' });
    expect(seen).toEqual(['late:generation-finished', 'late:note']);
  });

  it('a reporter that throws hides nothing from the others (the events it queued included); its error is thrown after, and later emits still deliver', () => {
    const seen: RunEvent['type'][] = [];
    let fail = true;
    const flaky: RunReporter = {
      on: (e, bus) => {
        if (!fail || e.type !== 'generation-finished') return;
        bus.emit({ type: 'note', text: 'queued before the throw' });
        throw new Error('reporter broke');
      },
    };
    const bus = new RunEvents().subscribe(flaky, { on: (e) => void seen.push(e.type) });
    expect(() => bus.emit({ type: 'generation-finished' })).toThrow('reporter broke');
    expect(seen).toEqual(['generation-finished', 'note']);
    fail = false;
    bus.emit({ type: 'note', text: 'x' });
    expect(seen).toEqual(['generation-finished', 'note', 'note']);
  });
});
