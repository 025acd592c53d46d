/** What a module of the project may be: a pack or a config. */
export const MODULE_EXTENSIONS = /\.(ts|mts|cts|js|mjs|cjs)$/;
