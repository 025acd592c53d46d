/**
 * Reading `Authorization` the strict way (RFC 6750 §2.1): exactly one header, scheme `Bearer`
 * (case-insensitive), one space, a token68. Anything else is "no token", hence 401.
 */
const BEARER = /^([A-Za-z]+) ([A-Za-z0-9\-._~+/]+=*)$/;

export function bearerTokenOf(authorizationValues: readonly string[]): string | null {
  if (authorizationValues.length !== 1) return null;
  const m = BEARER.exec(authorizationValues[0]!);
  if (!m || m[1]!.toLowerCase() !== 'bearer') return null;
  return m[2]!;
}
