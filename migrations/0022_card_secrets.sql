ALTER TABLE `payment_methods` ADD `pan_ciphertext` text;--> statement-breakpoint
ALTER TABLE `payment_methods` ADD `cvv_ciphertext` text;--> statement-breakpoint
ALTER TABLE `payment_methods` ADD `key_id` text;--> statement-breakpoint
ALTER TABLE `payment_methods` ADD `wallets` text DEFAULT '[]' NOT NULL;