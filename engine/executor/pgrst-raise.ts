/**
 * `RAISE SQLSTATE 'PGRST' USING MESSAGE = '{"code": …, "message": …}'` (PostgREST v12.2 Error.hs
 * 566-603, "full response control"): the body's code, message, details and hint are MESSAGE's
 * JSON. The one reading of it: the executor's answer (http-status.ts postgrestErrorAnswer) and
 * init's reading of a function's refusals (introspection/raise-forms.ts) both use it.
 */
import type { PostgrestErrorBody } from './response.ts';

/** The SQLSTATE whose MESSAGE is the body PostgREST answers. */
export const PGRST_SQLSTATE = 'PGRST';

/**
 * MESSAGE's JSON as the error body PostgREST answers (aeson: obligatory `code` and `message`
 * strings, optional `details` and `hint` strings or null); undefined where it is not such an object.
 */
export function pgrstMessageBody(message: string): PostgrestErrorBody | undefined {
  const json = jsonObject(message);
  const code = json?.code;
  const text = json?.message;
  if (typeof code !== 'string' || typeof text !== 'string' || !optionalText(json!.details) || !optionalText(json!.hint)) return undefined;
  return { code, message: text, details: (json!.details as string | undefined) ?? null, hint: (json!.hint as string | undefined) ?? null };
}

export function jsonObject(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** aeson's `.:?` of a Text field: absent or null is none; anything but a string fails the parse. */
export const optionalText = (v: unknown): boolean => v === undefined || v === null || typeof v === 'string';
