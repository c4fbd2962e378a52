CREATE TABLE `order_events` (
	`order_event_id` text PRIMARY KEY NOT NULL,
	`order_id` text NOT NULL,
	`partner_id` text NOT NULL,
	`environment` text NOT NULL,
	`merchant_key` text NOT NULL,
	`type` text NOT NULL,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`network_transaction_id` text NOT NULL,
	`partner_event_id` text,
	`rewards_amount` integer,
	`created_at` text NOT NULL,
	FOREIGN KEY (`order_id`) REFERENCES `orders`(`order_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `order_events_partner_event_idx` ON `order_events` (`partner_id`,`environment`,`merchant_key`,`partner_event_id`);--> statement-breakpoint
CREATE INDEX `order_events_order_idx` ON `order_events` (`order_id`,`order_event_id`);--> statement-breakpoint
CREATE INDEX `order_events_scope_idx` ON `order_events` (`partner_id`,`environment`,`merchant_key`,`order_event_id`);--> statement-breakpoint
CREATE INDEX `order_events_network_idx` ON `order_events` (`partner_id`,`environment`,`merchant_key`,`network_transaction_id`,`order_event_id`);--> statement-breakpoint
CREATE TABLE `orders` (
	`order_id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`environment` text NOT NULL,
	`merchant_key` text NOT NULL,
	`customer_id` text NOT NULL,
	`partner_order_id` text NOT NULL,
	`payment_method_id` text,
	`currency` text NOT NULL,
	`total_amount` integer NOT NULL,
	`rewards_amount` integer,
	`merchant` text,
	`lines` text NOT NULL,
	`captured_amount` integer DEFAULT 0 NOT NULL,
	`refunded_amount` integer DEFAULT 0 NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`customer_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE UNIQUE INDEX `orders_partner_order_idx` ON `orders` (`partner_id`,`environment`,`merchant_key`,`partner_order_id`);--> statement-breakpoint
CREATE INDEX `orders_scope_idx` ON `orders` (`partner_id`,`environment`,`merchant_key`,`order_id`);--> statement-breakpoint
CREATE INDEX `orders_customer_idx` ON `orders` (`partner_id`,`environment`,`merchant_key`,`customer_id`,`order_id`);--> statement-breakpoint
CREATE TABLE `transaction_intents` (
	`intent_id` text PRIMARY KEY NOT NULL,
	`partner_id` text NOT NULL,
	`environment` text NOT NULL,
	`merchant_key` text NOT NULL,
	`customer_id` text NOT NULL,
	`payment_method_id` text,
	`amount` integer NOT NULL,
	`currency` text NOT NULL,
	`status` text NOT NULL,
	`network_transaction_id` text,
	`partner_transaction_id` text,
	`expected_date` text,
	`merchant` text,
	`metadata` text NOT NULL,
	`created_at` text NOT NULL,
	`updated_at` text NOT NULL,
	FOREIGN KEY (`customer_id`) REFERENCES `customers`(`customer_id`) ON UPDATE no action ON DELETE no action
);
--> statement-breakpoint
CREATE INDEX `transaction_intents_customer_idx` ON `transaction_intents` (`partner_id`,`environment`,`merchant_key`,`customer_id`,`intent_id`);--> statement-breakpoint
CREATE INDEX `transaction_intents_status_idx` ON `transaction_intents` (`partner_id`,`environment`,`merchant_key`,`customer_id`,`status`,`intent_id`);