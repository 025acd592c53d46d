/** Where failures are saved by default: a light module, so `fuzz --help` need not load the store. */
import path from 'node:path';

export const DEFAULT_FAILURES_DIR = path.join('.policyfuzz', 'failures');
