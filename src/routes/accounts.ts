// GET /v2/customers/{customer_id}/accounts and /accounts/{account_id}: the account as it stands.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";

export const accountRoutes = new Hono<AppEnv>();
