/** `email` with its domain replaced by `domain`: the one spelling of a draw moved into a CHECK's domain (init's sample, the pack's draws). Pure. */
export function withDomain(email: string, domain: string): string {
  return email.replace(/@[^@]*$/, `@${domain}`);
}
