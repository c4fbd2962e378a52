// How the reference names a route's path and its parameters in OpenAPI.

/** `/v2/customers/:customer_id` → `/v2/customers/{customer_id}`. */
export function openApiPath(path: string): string {
  return path.replace(/:(\w+)/g, "{$1}");
}

export function pathParameters(path: string): string[] {
  return path
    .split("/")
    .filter((segment) => segment.startsWith(":"))
    .map((segment) => segment.slice(1));
}
