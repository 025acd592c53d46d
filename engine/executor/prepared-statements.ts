/**
 * The statements prepared on one connection, as PostgREST prepares its queries (hasql,
 * db-prepared-statements on by default): a request or fixture shape is parsed and planned once per
 * connection, then executed with its values. Here that is PREPARE and EXECUTE inside the case's
 * simple-protocol message, so it costs no round trip. A shape seen once runs as is (a PATCH's column
 * set may never come back); its second use sends `prepare pf_N as …; execute pf_N(…)`, later ones
 * only the EXECUTE.
 *
 * Prepared statements outlive rollbacks. A PREPARE that did not run (its message failed before
 * it, or it failed itself) is forgotten once the message's answer says how many ran, so its shape
 * is prepared again next time; until that answer comes (messages are pipelined), the shape runs
 * inline. A statement row-level security rewrites is prepared once per role that runs it: Postgres
 * re-analyzes and re-plans a prepared statement whenever a role other than the last one executes it
 * (measured on rule 2: half the plans its EXECUTEs built). Past `limit` shapes the connection's statements are dropped at the
 * start of the next case (`deallocate all`), so a long run keeps a bounded plan cache.
 */
import { inlineSql, literal, preparedText, type ParameterizedSql } from './sql-text.ts';

/** EXECUTE's argument list: the values as literals (none: nothing). */
function executeArgs(query: ParameterizedSql): string {
  return query.params.length ? `(${query.params.map(literal).join(', ')})` : '';
}

/** The PREPAREs one message carries, in order, and the reset epoch it was built in. */
export interface PendingPrepares {
  epoch: number;
  shapes: string[];
}

export class PreparedStatements {
  /** Shapes whose PREPARE ran here: their name. */
  private readonly names = new Map<string, string>();
  /** Shapes whose PREPARE is written but not answered yet: run inline meanwhile (not prepared twice, not executed before it exists). */
  private readonly inFlight = new Map<string, string>();
  /** Shapes run once, not prepared yet (bounded: cleared when it grows past 16 × limit). */
  private readonly seenOnce = new Set<string>();
  /** Shapes whose PREPARE is in the message being built, in the order they appear in it. */
  private pending: string[] = [];
  /** Bumped by every `deallocate all`: answers to messages built before it settle nothing. */
  private epoch = 0;
  private next = 0;

  constructor(private readonly limit = 256) {}

  /**
   * The text that runs `query` here: an EXECUTE, after its PREPARE the first time. `runsAs`: the
   * role the statement runs as, for a statement row-level security rewrites: Postgres keeps a
   * prepared statement's plan for the role it was made for and makes it again whenever another role
   * executes it, so each role gets its own (the same text, one plan each).
   */
  sqlFor(query: ParameterizedSql, runsAs?: string): string {
    const shape = runsAs === undefined ? query.marked : `${runsAs}\n${query.marked}`;
    const known = this.names.get(shape);
    if (known) return `execute ${known}${executeArgs(query)}`;
    if (this.inFlight.has(shape)) return inlineSql(query);
    if (!this.seenOnce.has(shape)) {
      if (this.seenOnce.size >= 16 * this.limit) this.seenOnce.clear();
      this.seenOnce.add(shape);
      return inlineSql(query);
    }
    this.seenOnce.delete(shape);
    const name = `pf_${this.next++}`;
    this.inFlight.set(shape, name);
    this.pending.push(shape);
    return `prepare ${name} as ${preparedText(query)}; execute ${name}${executeArgs(query)}`;
  }

  /** The PREPAREs of the message just built (given back to settle with its answer). */
  takePending(): PendingPrepares {
    const taken = { epoch: this.epoch, shapes: this.pending };
    this.pending = [];
    return taken;
  }

  /** A message's answer: its first `ran` PREPAREs took effect; the others did not (prepared again on a later use). */
  settle(message: PendingPrepares, ran: number): void {
    if (message.epoch !== this.epoch) return;
    message.shapes.forEach((marked, i) => {
      const name = this.inFlight.get(marked);
      this.inFlight.delete(marked);
      if (i < ran && name) this.names.set(marked, name);
      else this.seenOnce.add(marked);
    });
  }

  /** `deallocate all` when the connection holds `limit` statements (sent where no transaction is aborted), else nothing. */
  takeReset(): string | undefined {
    if (this.names.size + this.inFlight.size < this.limit) return undefined;
    this.forget();
    return 'deallocate all';
  }

  /** Forgets every statement (after `deallocate all` was sent). */
  clear(): void {
    this.forget();
    this.seenOnce.clear();
  }

  private forget(): void {
    this.names.clear();
    this.inFlight.clear();
    this.pending = [];
    this.epoch++;
  }
}
