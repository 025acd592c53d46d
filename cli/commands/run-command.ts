/** How main.ts runs a command's action: its exit code, errors printed in one line (main.ts `run`). */
export type RunCommand = (action: () => Promise<number>) => Promise<void>;
