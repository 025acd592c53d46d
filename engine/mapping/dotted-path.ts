// A setting's place in a nested settings object, by its dotted path (`shop.buyerEditableStatuses`): every dot a level.

export function setPath(target: Record<string, unknown>, dotted: string, value: unknown): void {
  const keys = dotted.split('.');
  let at = target;
  for (const k of keys.slice(0, -1)) at = (at[k] ??= {}) as Record<string, unknown>;
  at[keys.at(-1)!] = value;
}

export function valueAtPath(settings: unknown, dotted: string): unknown {
  let at: unknown = settings;
  for (const k of dotted.split('.')) at = typeof at === 'object' && at !== null ? (at as Record<string, unknown>)[k] : undefined;
  return at;
}
