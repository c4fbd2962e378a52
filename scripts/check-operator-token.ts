// Run by npm before `npm run deploy` (the predeploy script): a deployment's operator API is
// guarded by OPERATOR_TOKEN alone, so a deploy is refused without a token of at least 32
// characters. The deploy uploads the token from its environment with the Worker (wrangler's
// --secrets-file, scripts/deploy-secrets.env), so the token checked here is the token deployed.
// Local runs keep their short `dev-operator-token` (.dev.vars): they never deploy.
import process from "node:process";

/** The fewest characters an operator token of a deployment may have. */
export const MIN_OPERATOR_TOKEN_LENGTH = 32;

/** Why `token` may not guard a deployment's operator API, or null when it may. */
export function operatorTokenProblem(token: string | undefined): string | null {
  if (token === undefined || token.trim() === "") {
    return (
      "OPERATOR_TOKEN is not set. The deploy uploads the operator token from the environment: " +
      `set one of at least ${MIN_OPERATOR_TOKEN_LENGTH} random characters ` +
      "(OPERATOR_TOKEN=$(openssl rand -base64 48) npm run deploy, or your CI's secret)."
    );
  }
  if (token !== token.trim()) {
    return "OPERATOR_TOKEN starts or ends with whitespace: paste the token alone.";
  }
  if (token.length < MIN_OPERATOR_TOKEN_LENGTH) {
    return (
      `OPERATOR_TOKEN has ${token.length} characters; a deployment needs at least ` +
      `${MIN_OPERATOR_TOKEN_LENGTH} (openssl rand -base64 48 makes one). The short ` +
      "development token of .dev.vars is for local runs only."
    );
  }
  return null;
}

if (import.meta.filename === process.argv[1]) {
  const problem = operatorTokenProblem(process.env.OPERATOR_TOKEN);
  if (problem) {
    console.error(`npm run deploy refused: ${problem}`);
    process.exit(1);
  }
  console.log(`OPERATOR_TOKEN: ${process.env.OPERATOR_TOKEN?.length} characters, deploying.`);
}
