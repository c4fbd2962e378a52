-- Closed statements never change: any update to a figure, a date or the owning account is refused
-- by the database itself. Only pdf_key (the rendered document) and hidden_at (servicing) may change.
CREATE TRIGGER `statements_figures_immutable`
BEFORE UPDATE OF `statement_id`, `account_id`, `period_start_date`, `period_end_date`, `due_date`,
  `currency`, `statement_balance`, `minimum_due`, `previous_balance`, `purchases`, `payments`,
  `credits`, `refunds`, `interest`, `fees`, `overdue_amount`, `created_at` ON `statements`
WHEN NEW.`statement_id` IS NOT OLD.`statement_id`
  OR NEW.`account_id` IS NOT OLD.`account_id`
  OR NEW.`period_start_date` IS NOT OLD.`period_start_date`
  OR NEW.`period_end_date` IS NOT OLD.`period_end_date`
  OR NEW.`due_date` IS NOT OLD.`due_date`
  OR NEW.`currency` IS NOT OLD.`currency`
  OR NEW.`statement_balance` IS NOT OLD.`statement_balance`
  OR NEW.`minimum_due` IS NOT OLD.`minimum_due`
  OR NEW.`previous_balance` IS NOT OLD.`previous_balance`
  OR NEW.`purchases` IS NOT OLD.`purchases`
  OR NEW.`payments` IS NOT OLD.`payments`
  OR NEW.`credits` IS NOT OLD.`credits`
  OR NEW.`refunds` IS NOT OLD.`refunds`
  OR NEW.`interest` IS NOT OLD.`interest`
  OR NEW.`fees` IS NOT OLD.`fees`
  OR NEW.`overdue_amount` IS NOT OLD.`overdue_amount`
  OR NEW.`created_at` IS NOT OLD.`created_at`
BEGIN
  SELECT RAISE(ABORT, 'statement_figures_immutable');
END;
