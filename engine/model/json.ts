export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** A table row or a function's output row, as PostgREST renders it in JSON. */
export type Row = Record<string, Json>;
