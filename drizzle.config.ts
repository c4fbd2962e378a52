import { defineConfig } from "drizzle-kit";

// The shards' migrations (every DB_xx binding applies the same ones) are generated from the schema
// (the shared tables in src/db/schema.ts and each feature's own in its folder's schema.ts) into
// wrangler's default folder and applied by wrangler; the directory's are in
// drizzle.directory.config.ts.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/*/schema.ts",
  out: "./migrations",
});
