/**
 * Text made literal inside a regular expression: the one escape every module uses (the model's
 * like patterns, the catalog's names, the ids in a note), free of I/O so the model may import it.
 */
export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
}
