/**
 * The messages a worker's connection wrote, recorded for replay (bench.ts's raw floor,
 * harness-statements-cpu.ts's variants): the database does the same work again with no Node work
 * of the harness in between.
 */
import type pg from 'pg';
import { BatchQuery } from '../engine/executor/batch-query.ts';

/** A message the harness wrote, and how many of its connection's messages were still unanswered then. */
export interface Trip {
  text: string;
  inFlight: number;
}

/**
 * Records every message written on `client` (a string or a batch's text) with the number still
 * unanswered when it was written (the connection is pipelined); returns the undo.
 */
export function recordTrips(client: pg.Client, into: Trip[]): () => void {
  const query = client.query;
  let inFlight = 0;
  const answered = () => void inFlight--;
  client.query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    into.push({ text: typeof config === 'string' ? config : (config as { text: string }).text, inFlight });
    inFlight++;
    const result = (query as (...a: unknown[]) => unknown).call(this, config, ...rest);
    const done = config instanceof BatchQuery ? config.done : (result as Promise<unknown>);
    done.then(answered, answered);
    return result;
  } as typeof client.query;
  return () => {
    client.query = query;
  };
}
