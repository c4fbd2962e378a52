// Dead letters: the messages the service's queues gave up on, stored per shard by the
// dead-letter queues' consumer, listed and re-driven through the operator API, purged after 30
// days.
export { consumeDeadLetters, deadLetterQueueOf } from "./consumer";
export { deadLettersPurged } from "./maintenance";
export { deadLetterOperatorRoutes } from "./operator-routes";
export { DEAD_LETTER_RETENTION_DAYS } from "./store";
