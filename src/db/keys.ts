// Creating API keys: the plaintext is returned once; only its SHA-256 is stored.
import type { Environment } from "../../versions";
import { generateApiKey, generateKeyId, hashApiKey } from "../domain/api-keys";
import type { Database } from "./client";
import { apiKeys } from "./schema";

export interface CreatedKey {
  key_id: string;
  api_key: string;
  environment: Environment;
  scopes: string[];
  created_at: string;
  name?: string;
}

export async function createApiKey(
  db: Database,
  input: {
    partnerId: string;
    environment: Environment;
    scopes: readonly string[];
    name: string | null;
    now: Date;
  },
): Promise<CreatedKey> {
  const apiKey = generateApiKey(input.environment);
  const keyId = generateKeyId();
  const createdAt = input.now.toISOString();
  const scopes = [...input.scopes];
  await db.insert(apiKeys).values({
    keyId,
    keyHash: await hashApiKey(apiKey),
    partnerId: input.partnerId,
    environment: input.environment,
    scopes: JSON.stringify(scopes),
    name: input.name,
    createdAt,
  });
  const created: CreatedKey = {
    key_id: keyId,
    api_key: apiKey,
    environment: input.environment,
    scopes,
    created_at: createdAt,
  };
  if (input.name !== null) created.name = input.name;
  return created;
}
