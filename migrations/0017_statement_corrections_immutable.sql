-- A statement's rates, year-to-date totals, line items and correction links are figures too: they
-- never change once stored. `restated_by` is written once, by the restatement that replaces the
-- statement, so a second restatement (or a concurrent one) is refused by the database itself.
CREATE TRIGGER `statements_corrections_immutable`
BEFORE UPDATE OF `interest_rates`, `ytd_fees`, `ytd_interest`, `line_items_digest`, `restates`,
  `restated_by` ON `statements`
WHEN NEW.`interest_rates` IS NOT OLD.`interest_rates`
  OR NEW.`ytd_fees` IS NOT OLD.`ytd_fees`
  OR NEW.`ytd_interest` IS NOT OLD.`ytd_interest`
  OR NEW.`line_items_digest` IS NOT OLD.`line_items_digest`
  OR NEW.`restates` IS NOT OLD.`restates`
  OR (OLD.`restated_by` IS NOT NULL AND NEW.`restated_by` IS NOT OLD.`restated_by`)
BEGIN
  SELECT RAISE(ABORT, 'statement_figures_immutable');
END;
--> statement-breakpoint
CREATE TRIGGER `statement_line_items_immutable`
BEFORE UPDATE ON `statement_line_items`
BEGIN
  SELECT RAISE(ABORT, 'statement_figures_immutable');
END;
