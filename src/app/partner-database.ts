// The partner's database on the request: once a request knows its partner (from the key, the
// session, the link or the operator's partner id), the handlers' `c.get("db")` is that partner's
// shard, opened in the request's session.
import type { Context } from "hono";
import type { Database } from "../db/client";
import type { AppEnv } from "./context";

export function usePartnerDatabase(c: Context<AppEnv>, db: Database, shard: string): void {
  c.set("db", db);
  c.set("shard", shard);
}
