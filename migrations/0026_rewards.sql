ALTER TABLE `products` ADD `rewards_categories` text;--> statement-breakpoint
ALTER TABLE `statements` ADD `rewards` text;--> statement-breakpoint
-- A statement's rewards are among its figures: once stored they never change.
CREATE TRIGGER `statements_rewards_immutable`
BEFORE UPDATE OF `rewards` ON `statements`
WHEN NEW.`rewards` IS NOT OLD.`rewards`
BEGIN
  SELECT RAISE(ABORT, 'statement_figures_immutable');
END;
