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

/** A SQLSTATE's shape: five digits or upper-case letters. */
export const SQLSTATE_SHAPE = /^[0-9A-Z]{5}$/;

/**
 * The code of an error a client reads (the body's `code`) that a project may name as a refusal's:
 * a SQLSTATE, or the code a `RAISE SQLSTATE 'PGRST'` body gives, which PostgREST passes on as
 * written, five characters or not (`AUTH_REQUIRED`, `not-allowed`): any text without blanks but a
 * number alone, which is an HTTP status (`401`) mistaken for a code.
 */
export const ERROR_CODE = /^(?:[0-9A-Z]{5}|(?!\d+$)\S+)$/;

const BODY_CODE_MARK = 'PGRST:';

/**
 * A PGRST body's code as init's reading of a body writes it in a raise's ERRCODE (raise-forms.ts):
 * a SQLSTATE's shape as itself, any other as `PGRST:<code>`, which no ERRCODE Postgres runs can be
 * (a SQLSTATE or a lower-case condition name), so it is never read as a condition name
 * (`not_found` is one) nor dropped as no SQLSTATE.
 */
export function bodyCodeAsErrcode(code: string): string {
  return SQLSTATE_SHAPE.test(code) ? code : `${BODY_CODE_MARK}${code}`;
}

/** The PGRST body's code an ERRCODE written by bodyCodeAsErrcode stands for; undefined for any other ERRCODE. */
export function bodyCodeOfErrcode(errcode: string): string | undefined {
  return errcode.startsWith(BODY_CODE_MARK) && errcode.length > BODY_CODE_MARK.length ? errcode.slice(BODY_CODE_MARK.length) : undefined;
}
