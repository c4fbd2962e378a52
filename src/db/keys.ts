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

export interface NewKey {
  partnerId: string;
  environment: Environment;
  scopes: readonly string[];
  name: string | null;
  now: Date;
}

/** Stores a new key and answers it, with its plaintext. */
export async function createApiKey(db: Database, input: NewKey): Promise<CreatedKey> {
  const { created, insert } = await prepareApiKey(db, input);
  await insert;
  return created;
}

/**
 * A new key and the insert that stores it, not yet run: for a caller that commits it in one
 * batch with other writes.
 */
export async function prepareApiKey(db: Database, input: NewKey) {
  const apiKey = generateApiKey(input.environment);
  const keyId = generateKeyId();
  const createdAt = input.now.toISOString();
  const scopes = [...input.scopes];
  const insert = db.insert(apiKeys).values({
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
  return { created, insert };
}
