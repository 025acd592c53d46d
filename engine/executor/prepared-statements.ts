/**
 * The statements prepared on one connection, as PostgREST prepares its queries (hasql,
 * db-prepared-statements on by default): a request or fixture shape is parsed and planned once per
 * connection, then executed with its values. Here that is PREPARE and EXECUTE inside the case's
 * simple-protocol batch, so it costs no round trip. A shape seen once runs as is (a PATCH's column
 * set may never come back); its second use sends `prepare pf_N as …; execute pf_N(…)`, later ones
 * only the EXECUTE.
 *
 * Prepared statements outlive rollbacks. A PREPARE that did not run (the batch failed before it,
 * or it failed itself) is forgotten once the batch's answer says how many ran, so its shape is
 * prepared again next time. Past `limit` shapes the connection's statements are dropped at the
 * start of the next case (`deallocate all`), so a long run keeps a bounded plan cache.
 */
import { inlineSql, literal, preparedText, type ParameterizedSql } from './sql-text.ts';

/** EXECUTE's argument list: the values as literals (none: nothing). */
function executeArgs(query: ParameterizedSql): string {
  return query.params.length ? `(${query.params.map(literal).join(', ')})` : '';
}

export class PreparedStatements {
  private readonly names = new Map<string, string>();
  /** Shapes run once, not prepared yet (bounded: cleared when it grows past 16 × limit). */
  private readonly seenOnce = new Set<string>();
  /** Shapes whose PREPARE is in the batch being written, in the order they appear in it. */
  private pending: string[] = [];
  private next = 0;

  constructor(private readonly limit = 256) {}

  /** The text that runs `query` here: an EXECUTE, after its PREPARE the first time. */
  sqlFor(query: ParameterizedSql): string {
    const known = this.names.get(query.marked);
    if (known) return `execute ${known}${executeArgs(query)}`;
    if (!this.seenOnce.has(query.marked)) {
      if (this.seenOnce.size >= 16 * this.limit) this.seenOnce.clear();
      this.seenOnce.add(query.marked);
      return inlineSql(query);
    }
    this.seenOnce.delete(query.marked);
    const name = `pf_${this.next++}`;
    this.names.set(query.marked, name);
    this.pending.push(query.marked);
    return `prepare ${name} as ${preparedText(query)}; execute ${name}${executeArgs(query)}`;
  }

  /** After the batch: the first `ran` pending PREPAREs took effect; the others did not. */
  settle(ran: number): void {
    for (const marked of this.pending.slice(ran)) {
      this.names.delete(marked);
      this.seenOnce.add(marked);
    }
    this.pending = [];
  }

  /** `deallocate all` when the connection holds `limit` statements (sent where no transaction is aborted), else nothing. */
  takeReset(): string | undefined {
    if (this.names.size < this.limit) return undefined;
    this.names.clear();
    return 'deallocate all';
  }

  /** Forgets every statement (after `deallocate all` was sent). */
  clear(): void {
    this.names.clear();
    this.seenOnce.clear();
    this.pending = [];
  }
}
