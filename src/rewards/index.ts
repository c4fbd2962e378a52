// Rewards: the categories an account's card earns under (the route), and their schemas.
export * from "./api-schemas";
export * from "./routes";
