ALTER TABLE `products` ADD `billing_rights_address` text;--> statement-breakpoint
ALTER TABLE `products` ADD `late_payment` text;--> statement-breakpoint
ALTER TABLE `products` ADD `minimum_payment` text;--> statement-breakpoint
ALTER TABLE `products` ADD `credit_counseling_phone` text;