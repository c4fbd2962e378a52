// The API key a key creates, and the request that creates it.
import * as z from "zod";
import { requestBody, resource, timestamp } from "../canonical/schemas";
import { SCOPES } from "../domain/scopes";

export const ApiKey = resource(
  "ApiKey",
  z.object({
    key_id: z.string(),
    api_key: z.string().describe("The key itself; shown only in this response."),
    environment: z.enum(["sandbox", "production"]),
    scopes: z.array(z.enum(SCOPES)).describe("Exactly the scopes of the key that created it."),
    created_at: timestamp("When the key was created"),
    name: z.string().optional(),
  }),
);

export const CreateKeyRequest = requestBody(
  "CreateKeyRequest",
  z.strictObject({
    name: z.string().min(1).max(255).optional().describe("A label for the key."),
  }),
);

/** This feature's schemas, in the reference's order. */
export const schemas = [ApiKey, CreateKeyRequest];
