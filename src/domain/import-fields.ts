// The field rules the operator's bodies share (the import's sections, a restatement): ids,
// amounts, timestamps and currencies, each refused with what is wrong.
import * as z from "zod";
import { normaliseTimestamp } from "./timestamp";

/** Ids every route can address: no dot segments, no controls or spaces, nothing to escape. */
export const ID_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

export const id = z
  .string()
  .regex(
    ID_PATTERN,
    "must be 1 to 128 letters, digits, '_', '-' or '.', starting with a letter or digit",
  );

export const amount = z
  .number()
  .int()
  .refine(Number.isSafeInteger, "is out of range: integers up to 2^53 - 1 in size");

/** An RFC 3339 timestamp, normalised to UTC with milliseconds (the stored and served form). */
export const timestamp = z.string().transform((value, ctx) => {
  const normalised = normaliseTimestamp(value);
  if (normalised === null) {
    ctx.addIssue({ code: "custom", message: "must be an RFC 3339 timestamp" });
    return z.NEVER;
  }
  return normalised;
});

export const currency = z.string().regex(/^[A-Z]{3}$/, "must be 3 capital letters (ISO 4217)");

/** Text a person reads: 1 to `max` characters (code points), not blank, no control characters. */
export function readableText(max: number) {
  return z
    .string()
    .refine((value) => value.trim() !== "", "must not be empty or blank")
    .refine((value) => [...value].length <= max, `must be at most ${max} characters long`)
    .refine((value) => !/\p{Cc}/u.test(value), "must not hold control characters");
}
