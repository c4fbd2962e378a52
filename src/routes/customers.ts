// GET /v2/customers, GET /v2/customers/{customer_id}, POST /v2/customers/{customer_id}/link.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";

export const customerRoutes = new Hono<AppEnv>();
