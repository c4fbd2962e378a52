// The public documentation: the changelog, the OpenAPI documents and the reference pages.
export { docsRoutes } from "./routes";
