// Public documentation: changelog, per-version OpenAPI documents, interactive reference.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";

export const docsRoutes = new Hono<AppEnv>();
