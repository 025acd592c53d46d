/**
 * Text made literal inside a regular expression: the one escape every module uses (the model's
 * like patterns, the catalog's names, the ids in a note), free of I/O so the model may import it.
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}

/**
 * A SQL LIKE pattern as the source of the anchored regular expression it is: `%` any text, `_` one
 * character, `\` making the next one literal (match it with the `s` flag: `.` takes a newline, as in
 * Postgres). The one reading the model's like filters and the
 * CHECK reader's LIKE forms share.
 */
export function likePatternSource(pattern: string): string {
  let source = '';
  for (let i = 0; i < pattern.length; i++) {
    const ch = pattern[i];
    if (ch === '\\' && i + 1 < pattern.length) source += escapeRegExp(pattern[++i]);
    else if (ch === '%') source += '.*';
    else if (ch === '_') source += '.';
    else source += escapeRegExp(ch);
  }
  return `^${source}$`;
}
