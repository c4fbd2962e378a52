// The parts of OpenAPI 3.1 this service's reference writes, and reads back to render /docs.
import type { ParameterObject } from "../app/query";
import type { JsonObject, JsonSchema, SchemaMap } from "../versioning";

export type { ParameterObject } from "../app/query";

/** A reference to a component of the same document. */
export type Reference = { $ref: string };

export interface HeaderObject {
  description: string;
  schema: JsonSchema;
}

export type Content = { "application/json": { schema: JsonSchema } };

export interface ResponseObject {
  description: string;
  headers?: Record<string, HeaderObject | Reference>;
  content?: Content;
}

/** Which schemes (by name, with their scopes) may authenticate: any one of the list. */
export type SecurityRequirement = Record<string, string[]>;

export interface Operation {
  operationId: string;
  summary: string;
  description: string;
  tags: string[];
  "x-required-scope"?: string | null;
  parameters: (ParameterObject | Reference)[];
  requestBody?: { required: boolean; content: Content };
  responses: Record<string, ResponseObject | Reference>;
  security?: SecurityRequirement[];
}

export interface SecurityScheme {
  type: string;
  scheme?: string;
  description?: string;
}

export interface OpenApiDocument {
  openapi: string;
  info: {
    title: string;
    version: string;
    description: string;
    license: { name: string; identifier: string };
  };
  servers: { url: string; description: string }[];
  tags: { name: string; description: string }[];
  security: SecurityRequirement[];
  paths: Record<string, Record<string, Operation>>;
  /** What webhook endpoints receive (see webhook-deliveries/reference.ts). */
  webhooks: JsonObject;
  components: {
    securitySchemes: Record<string, SecurityScheme>;
    parameters: Record<string, ParameterObject>;
    headers: Record<string, HeaderObject>;
    responses: Record<string, ResponseObject>;
    schemas: SchemaMap;
  };
}

/** Whether a node is a reference rather than the object itself. */
export const isReference = (node: object): node is Reference =>
  "$ref" in node && typeof node.$ref === "string";
