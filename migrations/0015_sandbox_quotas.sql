CREATE TABLE `sandbox_usage` (
	`partner_id` text NOT NULL,
	`day` text NOT NULL,
	`statements` integer NOT NULL,
	PRIMARY KEY(`partner_id`, `day`),
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`partner_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `customers_sandbox_created_idx` ON `customers` (`created_at`) WHERE environment = 'sandbox';