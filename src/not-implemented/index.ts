// Routes the service names but does not serve yet: each answers 501 (see `notImplemented`).
export * from "./rewards-categories";
