// How the bench's reports (and the soak) write numbers.

/** A number with `digits` decimals, or "n/a" when there is none. */
export const fixed = (n: number, digits = 2) => (Number.isFinite(n) ? n.toFixed(digits) : "n/a");

/** Bytes in MiB, one decimal, written "MB" as the reports do. */
export const mb = (bytes: number) => `${(bytes / 2 ** 20).toFixed(1)} MB`;
