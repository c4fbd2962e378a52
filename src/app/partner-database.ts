// The partner's database on the request: once a request knows its partner (from the key, the
// session, the link or the operator's partner id), the handlers' `c.get("db")` is that partner's
// shard, opened in the request's session, and `c.get("documents")` the bucket of that shard's
// jurisdiction.
import type { Context } from "hono";
import type { Database } from "../db/client";
import { documentStoreOf } from "../db/jurisdiction-stores";
import type { AppEnv } from "./context";

export function usePartnerDatabase(c: Context<AppEnv>, db: Database, shard: string): void {
  c.set("db", db);
  c.set("shard", shard);
  c.set("documents", documentStoreOf(c.env, shard));
}
