import path from 'node:path';

/**
 * A folder (or file) as a user reads it in help and messages: relative to the current folder when
 * it lies inside it, else absolute (a "../../../work/…" path says nothing).
 */
export function shownPath(dir: string): string {
  const relative = path.relative(process.cwd(), dir);
  if (!relative) return dir;
  return relative.startsWith('..') || path.isAbsolute(relative) ? path.resolve(dir) : relative;
}
