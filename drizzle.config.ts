import { defineConfig } from "drizzle-kit";

// Migrations are generated from the schema into wrangler's default folder and applied by wrangler.
export default defineConfig({
  dialect: "sqlite",
  schema: "./src/db/schema.ts",
  out: "./migrations",
});
