CREATE TABLE `shard_size` (
	`id` integer PRIMARY KEY NOT NULL,
	`bytes` integer NOT NULL,
	`measured_at` text NOT NULL,
	CONSTRAINT "shard_size_one_row" CHECK("shard_size"."id" = 1)
);
--> statement-breakpoint
ALTER TABLE `sandbox_usage` ADD `line_items` integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE `sandbox_usage` ADD `rows` integer DEFAULT 0 NOT NULL;