// The authenticated caller of a partner request: what the key lookup returns.
import type { Environment } from "./environment";
import type { Scope } from "./scopes";

export interface Caller {
  keyId: string;
  /** The key's name, as its creator gave it (null: none). */
  keyName: string | null;
  partnerId: string;
  environment: Environment;
  scopes: readonly Scope[];
  /** UTC day the key was last recorded as used (null: never), as the key lookup read it. */
  lastUsedOn: string | null;
  savedVersion: string;
  /** The partner's products' merchant keys. */
  merchantKeys: readonly string[];
  /** The shard the partner lives on (where the key was found, after any forward). */
  shard: string;
  /** The partner is being moved to another shard: its writes wait until the move switches. */
  moving: boolean;
}
