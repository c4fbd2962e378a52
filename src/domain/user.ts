// Dashboard users: members of one partner, identified by their email address.
import type { Role } from "./permissions";

export interface User {
  userId: string;
  partnerId: string;
  email: string;
  role: Role;
  createdAt: string;
  lastSignedInAt: string | null;
}

/** Longest address SMTP carries (RFC 5321 path limit). */
const MAX_EMAIL_LENGTH = 254;
/** One `@`, something on each side, a dot in the domain, no spaces or angle brackets. */
const EMAIL = /^[^\s@<>"]+@[^\s@<>".]+(\.[^\s@<>".]+)+$/;

/**
 * The stored form of an address (trimmed, lowercased), or null when it is not one. Addresses
 * are compared case-insensitively: people type them both ways.
 */
export function normalizeEmail(text: string): string | null {
  const email = text.trim().toLowerCase();
  return email.length <= MAX_EMAIL_LENGTH && EMAIL.test(email) ? email : null;
}
