// The stores of a jurisdiction. A partner's data goes only to stores of its shard's jurisdiction:
// its statement documents and logos to that jurisdiction's bucket (`PDFS` for partners without
// one, `PDFS_EU`, `PDFS_US`, `PDFS_FEDRAMP`), its request logs through that jurisdiction's queue
// (`REQUEST_LOGS`, `REQUEST_LOGS_EU`, …). A binding a jurisdiction lacks is never replaced by
// another jurisdiction's: documents fail loudly, request logs are not kept.
import { type Jurisdiction, jurisdictionSuffix } from "../domain/jurisdiction";
import { type ShardJurisdictionsConfig, shardJurisdiction } from "./shards";
import { type DocumentStore, openDocumentStore } from "./storage";

/** A deployment's bindings, by name. */
type Bindings = ShardJurisdictionsConfig & object;

/** The binding name of the documents bucket of `jurisdiction`. */
const documentBucketBinding = (jurisdiction: Jurisdiction) =>
  `PDFS${jurisdictionSuffix(jurisdiction)}`;

/** The binding name of the request-log queue of `jurisdiction`. */
const requestLogQueueBinding = (jurisdiction: Jurisdiction) =>
  `REQUEST_LOGS${jurisdictionSuffix(jurisdiction)}`;

/** A jurisdiction's store is not bound: the deployment is missing it. */
export class MissingStoreError extends Error {
  constructor(binding: string, jurisdiction: Jurisdiction) {
    super(`no ${binding} binding: the store of ${jurisdiction} partners' data is not bound`);
    this.name = "MissingStoreError";
  }
}

/** The documents bucket of `jurisdiction`; throws when the deployment does not bind it. */
export function documentBucket(env: Bindings, jurisdiction: Jurisdiction): R2Bucket {
  const binding = documentBucketBinding(jurisdiction);
  // A jurisdiction's bucket is bound by a name made of it, so the env's type does not list every
  // one: a binding by that name is that jurisdiction's bucket (wrangler.toml).
  const bucket = (env as Record<string, R2Bucket | undefined>)[binding];
  if (!bucket) throw new MissingStoreError(binding, jurisdiction);
  return bucket;
}

/**
 * The document store of shard `shard`'s partners: the bucket of the shard's jurisdiction, found
 * on first use (a request that reads no document never fails for a bucket it does not need).
 */
export function documentStoreOf(env: Bindings, shard: string): DocumentStore {
  let store: DocumentStore | undefined;
  const open = () => {
    store ??= openDocumentStore(documentBucket(env, shardJurisdiction(env, shard)));
    return store;
  };
  return {
    head: async (key) => open().head(key),
    get: async (key, options) => open().get(key, options),
    put: async (key, bytes, contentType) => open().put(key, bytes, contentType),
  };
}

/** The request-log queue of shard `shard`'s partners, or undefined when it is not bound. */
export function requestLogQueueOf(env: Bindings, shard: string): Queue | undefined {
  const binding = requestLogQueueBinding(shardJurisdiction(env, shard));
  // As for buckets: a binding by the name made of the jurisdiction is its request-log queue.
  return (env as Record<string, Queue | undefined>)[binding];
}
