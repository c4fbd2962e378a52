import { applyD1Migrations } from "cloudflare:test";
import { env } from "cloudflare:workers";
import { shardCodes } from "../../src/db/shards";
import { shardDatabase } from "./shards";

// Every shard gets the shards' migrations, the directory its own: as `npm run db:migrate:local`.
for (const shard of shardCodes(env)) {
  await applyD1Migrations(shardDatabase(shard), env.TEST_MIGRATIONS);
}
await applyD1Migrations(env.DIRECTORY, env.TEST_DIRECTORY_MIGRATIONS);
