import type { SsoSettings } from '../../model/settings.ts';
import type { Endpoint, EmulatorRequest, Middleware, Reply } from '../http.ts';
import type { EmulatorStore, StoreRules } from '../store.ts';

/**
 * One deliberate defect, as what it changes at the emulator's seams. The emulator itself knows
 * no fault: it is built from the settings it acts on, its store rules and its middleware, and a
 * fault changes one or more of these.
 */
export interface Fault {
  /** Settings the faulty service acts on instead of the configured ones (health still reports the configured ones). */
  readonly actsAsIf?: Partial<SsoSettings>;
  /** Replaces some of the store's rules; `beneath` are the rules it wraps. Called once per emulator. */
  readonly storeRules?: (beneath: StoreRules) => Partial<StoreRules>;
  /** Wraps the emulator's HTTP handling. Called once per emulator. */
  readonly middleware?: (ctx: FaultContext) => Middleware;
}

/** What a fault's middleware may read. */
export interface FaultContext {
  readonly store: EmulatorStore;
}

/** A fault that changes the request before the emulator reads it, on these endpoints. */
export function rewritingRequest(endpoints: readonly Endpoint[], rewrite: (req: EmulatorRequest) => EmulatorRequest): Fault {
  return { middleware: () => (req, next) => next(endpoints.includes(req.endpoint) ? rewrite(req) : req) };
}

/** A fault that changes the emulator's reply, on these endpoints. */
export function rewritingReply(endpoints: readonly Endpoint[], rewrite: (reply: Reply, req: EmulatorRequest, ctx: FaultContext) => Reply): Fault {
  return {
    middleware: (ctx) => async (req, next) => {
      const reply = await next(req);
      return endpoints.includes(req.endpoint) ? rewrite(reply, req, ctx) : reply;
    },
  };
}
