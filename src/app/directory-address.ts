// How the directory lists the dashboard addresses of the request's partner: as they are for a
// partner without a jurisdiction, by their keyed hash (DIRECTORY_SECRET) for one with, so that the
// directory, which has no jurisdiction, keeps no personal data of such a partner.
import type { Context } from "hono";
import type { PartnerDirectory } from "../db/directory";
import { shardJurisdiction } from "../db/shards";
import { addressHash, isAddressSecret } from "../domain/address-hash";
import type { AppEnv, Bindings } from "./context";

/** The keyed hash of a normalised address; null when the deployment has no DIRECTORY_SECRET. */
export function keyedAddress(env: Bindings, email: string): Promise<string> | null {
  const secret = env.DIRECTORY_SECRET;
  return isAddressSecret(secret) ? addressHash(secret, email) : null;
}

/** The keyed hash of an address of a partner with a jurisdiction: DIRECTORY_SECRET must be set. */
export async function requiredKeyedAddress(env: Bindings, email: string): Promise<string> {
  const hash = keyedAddress(env, email);
  if (hash === null) {
    throw new Error(
      "DIRECTORY_SECRET is missing or shorter than 32 characters: the addresses of a partner " +
        "with a jurisdiction cannot be listed in the directory",
    );
  }
  return hash;
}

/** The directory as changes to the users of the request's partner (its shard known) reach it. */
export function partnerDirectory(c: Context<AppEnv>): PartnerDirectory {
  const hashed = shardJurisdiction(c.env, c.get("shard")) !== "none";
  return {
    db: c.get("shards").directory(),
    list: async (email) =>
      hashed ? { emailHash: await requiredKeyedAddress(c.env, email) } : { email },
  };
}
