CREATE TABLE `statement_line_items` (
	`statement_id` text NOT NULL,
	`line_item_id` text NOT NULL,
	`type` text NOT NULL,
	`posted_at` text NOT NULL,
	`transaction_date` text,
	`description` text NOT NULL,
	`amount` integer NOT NULL,
	`merchant_name` text,
	`merchant_category_code` text,
	`merchant_city` text,
	`merchant_country` text,
	`original_amount` integer,
	`original_currency` text,
	`card_last4` text,
	PRIMARY KEY(`statement_id`, `line_item_id`),
	FOREIGN KEY (`statement_id`) REFERENCES `statements`(`statement_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `statement_line_items_page_idx` ON `statement_line_items` (`statement_id`,`posted_at`,`line_item_id`);--> statement-breakpoint
CREATE INDEX `statement_line_items_type_idx` ON `statement_line_items` (`statement_id`,`type`,`posted_at`,`line_item_id`);--> statement-breakpoint
DROP INDEX `statements_page_idx`;--> statement-breakpoint
ALTER TABLE `statements` ADD `interest_rates` text;--> statement-breakpoint
ALTER TABLE `statements` ADD `ytd_fees` integer;--> statement-breakpoint
ALTER TABLE `statements` ADD `ytd_interest` integer;--> statement-breakpoint
ALTER TABLE `statements` ADD `line_items_digest` text;--> statement-breakpoint
ALTER TABLE `statements` ADD `restates` text;--> statement-breakpoint
ALTER TABLE `statements` ADD `restated_by` text;--> statement-breakpoint
CREATE INDEX `statements_page_idx` ON `statements` (`account_id`,`period_end_date`,`statement_id`) WHERE hidden_at IS NULL AND restated_by IS NULL;