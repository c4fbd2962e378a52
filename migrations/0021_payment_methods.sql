CREATE TABLE `payment_methods` (
	`payment_method_id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`account_id` text NOT NULL,
	`partner_id` text NOT NULL,
	`environment` text NOT NULL,
	`merchant_key` text NOT NULL,
	`type` text NOT NULL,
	`status` text NOT NULL,
	`network` text NOT NULL,
	`card_type` text NOT NULL,
	`last4` text NOT NULL,
	`expiration_month` integer NOT NULL,
	`expiration_year` integer NOT NULL,
	`created_at` text NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`customer_id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`account_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `payment_methods_customer_idx` ON `payment_methods` (`partner_id`,`environment`,`merchant_key`,`customer_id`,`created_at`,`payment_method_id`);