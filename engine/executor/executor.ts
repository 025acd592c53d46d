/**
 * The client of the Jepsen-like split (generator → client → history → checker): something that
 * opens a case with its fixtures, sends requests as a caller and answers as PostgREST would, and
 * ends the case leaving nothing behind. CaseTransaction (PostgREST's SQL on a pg connection) is
 * one implementation; an HTTP executor against a live PostgREST can be another.
 */
import type { Caller } from '../model/caller.ts';
import type { ApiRequest } from '../model/request.ts';
import type { FixturePlan, FixtureStatement } from '../target/fixtures.ts';
import type { ApiResponse } from './response.ts';
import type { SchemaCache } from './schema-cache.ts';

/** A request a case will send, known before the case opens: its caller and the request as sent. */
export interface PlannedRequest {
  caller: Caller;
  request: ApiRequest;
}

export interface Executor {
  /** How fixtures are written into this target (the reference way, or a project's own). */
  readonly fixturePlan: FixturePlan;
  /** The target's catalog as sent by, where the executor reads one: what reads user_metadata (a failure names the caller's only there). */
  readonly cache?: SchemaCache;
  /**
   * Opens a case and writes its fixtures as the server; `perRow` names a refused row. `ahead`:
   * the requests the case will send, in order, when known (an executor may send them with the
   * fixtures); send() is then called with these very request objects, in this order.
   */
  begin(fixtures: FixtureStatement[], perRow?: () => FixtureStatement[], ahead?: readonly PlannedRequest[]): Promise<void>;
  send(caller: Caller, request: ApiRequest): Promise<ApiResponse>;
  /**
   * A case whose requests are all known, in one go: opens it, writes the fixtures and every
   * request, and ends it. The executor is free for the next case as soon as this returns (it may
   * go out before these answers come back); the answers come in order. Optional: without it a
   * case goes through begin, send and end.
   */
  runPlanned?(fixtures: FixtureStatement[], perRow: () => FixtureStatement[], ahead: readonly PlannedRequest[]): Promise<ApiResponse[]>;
  /** Ends the case; nothing it wrote survives into the next one. */
  end(): Promise<void>;
}
