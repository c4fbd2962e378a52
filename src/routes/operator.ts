// /operator/v1/*: the internal API that loads partners, keys, customers, accounts, statements, PDFs.
import { Hono } from "hono";
import type { AppEnv } from "../app/context";

export const operatorRoutes = new Hono<AppEnv>();
