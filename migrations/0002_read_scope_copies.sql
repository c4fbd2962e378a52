-- Copies that let a statements read prove ownership from one account row and authenticate from
-- one partner row (see src/db/schema.ts). SQLite cannot add a NOT NULL column without a default,
-- so the columns get an empty default and are filled from their source right away.
ALTER TABLE `accounts` ADD `partner_id` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `environment` text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE `accounts` ADD `merchant_key` text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE `accounts` SET
  `partner_id` = (SELECT `partner_id` FROM `customers` c WHERE c.`customer_id` = `accounts`.`customer_id`),
  `environment` = (SELECT `environment` FROM `customers` c WHERE c.`customer_id` = `accounts`.`customer_id`),
  `merchant_key` = (SELECT `merchant_key` FROM `customers` c WHERE c.`customer_id` = `accounts`.`customer_id`);--> statement-breakpoint
ALTER TABLE `partners` ADD `merchant_keys` text DEFAULT '[]' NOT NULL;--> statement-breakpoint
UPDATE `partners` SET `merchant_keys` = (
  SELECT json_group_array(`merchant_key`) FROM (
    SELECT `merchant_key` FROM `products` p WHERE p.`partner_id` = `partners`.`partner_id` ORDER BY `merchant_key`
  )
);
