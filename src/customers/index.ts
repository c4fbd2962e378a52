// Customers: the /v2 customer routes (the read scope they stay inside is db/customers.ts).
export * from "./api-schemas";
export * from "./routes";
