/** The login e-mail as stored and compared: trimmed and lower-cased, so `A@x.io ` and `a@x.io` are one account. */
export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}
