CREATE TABLE `user_email_hashes` (
	`email_hash` text NOT NULL,
	`partner_id` text NOT NULL,
	PRIMARY KEY(`email_hash`, `partner_id`)
);
--> statement-breakpoint
ALTER TABLE `outbox` ADD `shard` text;