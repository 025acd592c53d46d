// What `sso check`'s options and its run both need, light enough for the CLI's first line.

/** Seconds `sso check` waits at most for expiry by default (`--max-wait` changes it). */
export const EXPIRY_WAIT_BOUND_S = 120;
