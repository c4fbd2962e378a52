// Messages for validation problems that say what is actually wrong: missing, the wrong type (and
// which), out of range, not an integer, too long. zod's issue says what was expected; the value
// sent is read from the input at the issue's path.
import type * as z from "zod";

/** What `value` holds under `key` when it is an object (or an array), else undefined. */
export function propertyOf(value: unknown, key: PropertyKey): unknown {
  return typeof value === "object" && value !== null ? Reflect.get(value, key) : undefined;
}

/** The value at `path` in `input`, and whether it is there at all. */
function valueAt(
  input: unknown,
  path: readonly PropertyKey[],
): { present: boolean; value: unknown } {
  let value = input;
  for (const part of path) {
    if (typeof value !== "object" || value === null || !(part in value)) {
      return { present: false, value: undefined };
    }
    value = propertyOf(value, part);
  }
  return { present: value !== undefined, value };
}

/** `a string ("abc")`, `a number (12.5)`, `null`, `an array`, `an object`. */
export function describeValue(value: unknown): string {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  switch (typeof value) {
    case "string":
      return `a string (${JSON.stringify(value.length > 32 ? `${value.slice(0, 32)}…` : value)})`;
    case "number":
      return `a number (${value})`;
    case "boolean":
      return `a boolean (${value})`;
    case "object":
      return "an object";
    default:
      return typeof value;
  }
}

const EXPECTED: Record<string, string> = {
  string: "a string",
  // Every number the service takes is an integer (amounts in the smallest currency unit).
  number: "an integer",
  int: "an integer",
  boolean: "true or false",
  array: "an array",
  object: "an object",
};

function bound(issue: { origin?: string; minimum?: unknown; maximum?: unknown }, most: boolean) {
  const limit = String(most ? issue.maximum : issue.minimum);
  switch (issue.origin) {
    case "string":
      if (!most && limit === "1") return "must not be empty";
      return `must be at ${most ? "most" : "least"} ${limit} characters long`;
    case "array":
      return `must hold at ${most ? "most" : "least"} ${limit} items`;
    default:
      return `is out of range: ${most ? "at most" : "at least"} ${limit}`;
  }
}

/** What is wrong with the value at the issue's path, in words. */
export function describeProblem(input: unknown, issue: z.core.$ZodIssue): string {
  const { present, value } = valueAt(input, issue.path);
  switch (issue.code) {
    case "invalid_type": {
      if (!present) return "is required";
      const expected = EXPECTED[issue.expected] ?? issue.expected;
      if (typeof value === "number" && (issue.expected === "int" || issue.expected === "number")) {
        return Number.isFinite(value)
          ? `must be an integer, not a fraction (${value})`
          : `must be an integer, not ${value}`;
      }
      return `must be ${expected}, not ${describeValue(value)}`;
    }
    case "too_big":
      return bound(issue, true);
    case "too_small":
      return bound(issue, false);
    case "invalid_value":
      return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(", ")}, not ${describeValue(value)}`;
    case "unrecognized_keys":
      return `unknown field(s) ${issue.keys.map((k) => JSON.stringify(k)).join(", ")}`;
    case "invalid_format":
      return `${issue.message}, not ${describeValue(value)}`;
    default:
      return issue.message;
  }
}

/**
 * The issues worth reporting: once a value has the wrong type, checks of its length or range say
 * nothing more (zod may still run them).
 */
export function relevantIssues(issues: readonly z.core.$ZodIssue[]): z.core.$ZodIssue[] {
  const mistyped = new Set(
    issues.filter((i) => i.code === "invalid_type").map((i) => JSON.stringify(i.path)),
  );
  return issues.filter((i) => i.code === "invalid_type" || !mistyped.has(JSON.stringify(i.path)));
}
