// How long dashboard credentials live (OWASP ASVS 4.0 §3.3.2, level 2: 30 idle minutes, 12 hours).

/** A sign-in link works once, for this long after it is mailed. */
export const SIGN_IN_LINK_LIFETIME_MS = 15 * 60_000;

/** A session ends after this long without a request. */
export const SESSION_IDLE_TIMEOUT_MS = 30 * 60_000;

/** A session ends this long after sign-in, however busy. */
export const SESSION_ABSOLUTE_LIFETIME_MS = 12 * 3_600_000;

/** A session's last-seen time is written at most this often. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;
