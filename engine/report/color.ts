/**
 * Colour on the console, only where a person reads it: never when NO_COLOR is set (any
 * non-empty value, https://no-color.org) or `--no-color` is given, nor when the stream is not a
 * terminal, unless FORCE_COLOR asks for it.
 */
export interface Paint {
  red(text: string): string;
  green(text: string): string;
  yellow(text: string): string;
  bold(text: string): string;
  dim(text: string): string;
}

export function colorEnabled(options: { noColor?: boolean; stream?: { isTTY?: boolean } } = {}, env: NodeJS.ProcessEnv = process.env): boolean {
  if (options.noColor || (env.NO_COLOR !== undefined && env.NO_COLOR !== '')) return false;
  if (env.FORCE_COLOR && env.FORCE_COLOR !== '0' && env.FORCE_COLOR !== 'false') return true;
  return Boolean((options.stream ?? process.stdout).isTTY);
}

const wrap = (on: boolean, open: number, close: number) => (text: string) => (on ? `\u001b[${open}m${text}\u001b[${close}m` : text);

export function paint(on: boolean): Paint {
  return { red: wrap(on, 31, 39), green: wrap(on, 32, 39), yellow: wrap(on, 33, 39), bold: wrap(on, 1, 22), dim: wrap(on, 2, 22) };
}

export const NO_PAINT: Paint = paint(false);
