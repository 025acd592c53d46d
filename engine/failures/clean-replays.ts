/** Clean replays in a row that make a saved failure FIXED (a light module: `replay --help` names it). */
export const CLEAN_REPLAYS_FOR_FIXED = 3;
