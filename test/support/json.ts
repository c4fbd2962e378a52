// What the tests read as plain JSON (bodies, OpenAPI documents): any shape, held to account by
// the assertions that read it.
// biome-ignore lint/suspicious/noExplicitAny: response bodies and documents are inspected as plain JSON
export type Json = any;

/** A value read as plain JSON, for assertions that look inside it. */
export const plain = (value: unknown): Json => value;
