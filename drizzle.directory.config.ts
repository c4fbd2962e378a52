import { defineConfig } from "drizzle-kit";

// The directory database has its own schema and migrations (drizzle.config.ts is the shards').
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/directory-schema.ts",
  out: "./migrations-directory",
});
