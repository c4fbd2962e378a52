CREATE TABLE `outbox` (
	`id` integer PRIMARY KEY AUTOINCREMENT NOT NULL,
	`recipient` text NOT NULL,
	`subject` text NOT NULL,
	`text` text NOT NULL,
	`html` text,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `partner_moves` (
	`move_id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`from_shard` text NOT NULL,
	`to_shard` text NOT NULL,
	`phase` text NOT NULL,
	`table_index` integer DEFAULT 0 NOT NULL,
	`cursor` integer DEFAULT 0 NOT NULL,
	`attempt` integer DEFAULT 1 NOT NULL,
	`tables` text DEFAULT '{}' NOT NULL,
	`started_at` text NOT NULL,
	`switched_at` text,
	`retire_after` text,
	`finished_at` text,
	`lease_until` text,
	`error` text
);
--> statement-breakpoint
CREATE UNIQUE INDEX `partner_moves_open_partner_idx` ON `partner_moves` (`partner_id`) WHERE finished_at IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX `partner_moves_open_source_idx` ON `partner_moves` (`from_shard`) WHERE finished_at IS NULL;--> statement-breakpoint
CREATE INDEX `partner_moves_partner_idx` ON `partner_moves` (`partner_id`,`started_at`);--> statement-breakpoint
CREATE TABLE `partner_shards` (
	`partner_id` text PRIMARY KEY NOT NULL,
	`shard` text NOT NULL,
	`created_at` text NOT NULL,
	`moved_at` text
);
--> statement-breakpoint
CREATE INDEX `partner_shards_shard_idx` ON `partner_shards` (`shard`,`partner_id`);--> statement-breakpoint
CREATE TABLE `user_emails` (
	`email` text NOT NULL,
	`partner_id` text NOT NULL,
	PRIMARY KEY(`email`, `partner_id`)
);
