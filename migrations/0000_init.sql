CREATE TABLE `accounts` (
	`account_id` text PRIMARY KEY NOT NULL,
	`customer_id` text NOT NULL,
	`status` text,
	`currency` text,
	`credit_limit` integer,
	`current_balance` integer,
	`available_credit` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`customer_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `accounts_customer_idx` ON `accounts` (`customer_id`,`account_id`);--> statement-breakpoint
CREATE TABLE `api_keys` (
	`key_id` text PRIMARY KEY NOT NULL,
	`key_hash` text NOT NULL,
	`partner_id` text NOT NULL,
	`environment` text NOT NULL,
	`scopes` text NOT NULL,
	`name` text,
	`created_at` text NOT NULL,
	`revoked_at` text,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`partner_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `api_keys_hash_idx` ON `api_keys` (`key_hash`);--> statement-breakpoint
CREATE TABLE `customers` (
	`customer_id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`environment` text NOT NULL,
	`merchant_key` text NOT NULL,
	`partner_customer_id` text,
	`authorized_users` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`partner_id`) ON UPDATE no action ON DELETE no action,
	FOREIGN KEY (`merchant_key`) REFERENCES `products`(`merchant_key`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `customers_scope_idx` ON `customers` (`partner_id`,`environment`,`merchant_key`,`customer_id`);--> statement-breakpoint
CREATE TABLE `partners` (
	`partner_id` text PRIMARY KEY NOT NULL,
	`name` text NOT NULL,
	`saved_version_sandbox` text NOT NULL,
	`saved_version_production` text NOT NULL,
	`created_at` text NOT NULL
);
--> statement-breakpoint
CREATE TABLE `products` (
	`merchant_key` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`name` text NOT NULL,
	FOREIGN KEY (`partner_id`) REFERENCES `partners`(`partner_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `products_partner_idx` ON `products` (`partner_id`,`merchant_key`);--> statement-breakpoint
CREATE TABLE `statements` (
	`statement_id` text PRIMARY KEY NOT NULL,
	`account_id` text NOT NULL,
	`period_start_date` text,
	`period_end_date` text NOT NULL,
	`due_date` text,
	`currency` text,
	`statement_balance` integer,
	`minimum_due` integer,
	`previous_balance` integer,
	`purchases` integer,
	`payments` integer,
	`credits` integer,
	`refunds` integer,
	`interest` integer,
	`fees` integer,
	`overdue_amount` integer,
	`pdf_key` text,
	`hidden_at` text,
	`created_at` text NOT NULL,
	FOREIGN KEY (`account_id`) REFERENCES `accounts`(`account_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `statements_page_idx` ON `statements` (`account_id`,`period_end_date`,`statement_id`) WHERE hidden_at IS NULL;