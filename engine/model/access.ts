/**
 * Who can do what: one cell of the access matrix per table or function × command × caller
 * class × outcome (allowed, filtered, refused by grant, refused by policy, raised by a guard or
 * function, error). The runner counts the cells of every agreed step; the report renders them.
 */
import { apiRoleOf, type Caller } from './caller.ts';
import type { Outcome } from './outcome.ts';
import { targetName, type ApiRequest } from './request.ts';

export type AccessOutcome = 'allowed' | 'filtered' | 'refused by grant' | 'refused by policy' | 'raised' | 'error';
export const ACCESS_OUTCOMES: readonly AccessOutcome[] = ['allowed', 'filtered', 'refused by grant', 'refused by policy', 'raised', 'error'];

export interface AccessCell {
  /** `users`, `passport.profiles`, `rpc vs_transfer_dept`. */
  target: string;
  command: 'select' | 'insert' | 'update' | 'delete' | 'execute';
  /** The API role the caller reaches the database as: anon, authenticated, service_role. */
  caller: string;
  outcome: AccessOutcome;
}

export function accessOutcome(o: Outcome): AccessOutcome {
  switch (o.kind) {
    case 'allowed':
    case 'filtered':
      return o.kind;
    case 'rejected':
      return o.by === 'grant' ? 'refused by grant' : 'refused by policy';
    case 'raised':
      return 'raised';
    case 'error':
      return 'error';
  }
}

/** A kind of request: a cell of the access matrix without its outcome (what was asked, whatever the answer). */
export type RequestKind = Omit<AccessCell, 'outcome'>;

export function requestKind(caller: Caller, request: ApiRequest): RequestKind {
  return {
    target: request.kind === 'rpc' ? `rpc ${targetName(request)}` : targetName(request),
    command: request.kind === 'rpc' ? 'execute' : request.kind,
    caller: apiRoleOf(caller),
  };
}

/** A kind of request as one string key (`users|update|authenticated`): early stop and guided generation compare these. */
export function requestKindKey(kind: RequestKind): string {
  return [kind.target, kind.command, kind.caller].join('|');
}

export function accessCell(caller: Caller, request: ApiRequest, outcome: Outcome): AccessCell {
  return { ...requestKind(caller, request), outcome: accessOutcome(outcome) };
}

/** The cell as one string key (`users|update|authenticated|refused by policy`), for counting. */
export function accessKey(cell: AccessCell): string {
  return [cell.target, cell.command, cell.caller, cell.outcome].join('|');
}

export function parseAccessKey(key: string): AccessCell {
  const [target, command, caller, outcome] = key.split('|');
  return { target, command: command as AccessCell['command'], caller, outcome: outcome as AccessOutcome };
}
