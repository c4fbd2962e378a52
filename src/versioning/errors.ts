// What the bundle throws at a request: the one failure a client's body can cause.

/** An older client sent a field its version does not have. */
export class UnknownRequestField extends Error {
  constructor(readonly field: string) {
    super(`${JSON.stringify(field)} is not a field of this request`);
    this.name = "UnknownRequestField";
  }
}
