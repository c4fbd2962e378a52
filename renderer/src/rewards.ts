// The Rewards section: what the cycle earned, by the product's categories, what was redeemed and
// what the cardholder holds, as a tagged table like the statement's others. Points are counted
// as whole numbers; cash back is money in the statement's currency.
import type { Accent } from "./accent";
import { drawFlowTable } from "./flow-table";
import type { AmountFormat } from "./money";
import type { PageFlow } from "./page-flow";
import { CONTENT_WIDTH, type Doc, type StructElement } from "./page-style";
import type { ProductPresentation, StatementRewards } from "./statement-document";

export const REWARDS_TITLE = "Rewards";

const points = new Intl.NumberFormat("en-US", { maximumFractionDigits: 0 });

/** Writes a figure of the rewards in their unit: "1,070 points", or cash back as money. */
function rewardsFigure(rewards: StatementRewards, money: AmountFormat): (value: number) => string {
  if (rewards.unit === "POINTS") {
    return (value) => `${points.format(value)} ${Math.abs(value) === 1 ? "point" : "points"}`;
  }
  return (value) => money.format(value);
}

/** The Rewards section, after the statement's other tables. */
export function drawRewards(
  doc: Doc,
  flow: PageFlow,
  root: StructElement,
  rewards: StatementRewards,
  product: ProductPresentation,
  money: AmountFormat,
  accent: Accent,
): void {
  const figure = rewardsFigure(rewards, money);
  const names = new Map(
    (product.rewards_categories ?? []).map((category) => [category.category_id, category.name]),
  );
  const parts = rewards.by_category ?? [];
  const rows =
    parts.length > 0
      ? parts.map((part) => [names.get(part.category_id) ?? part.category_id, figure(part.earned)])
      : [["All purchases", figure(rewards.earned)]];
  const totals = [
    { label: "Earned this period", amount: figure(rewards.earned) },
    ...(rewards.redeemed === undefined
      ? []
      : [{ label: "Redeemed this period", amount: figure(rewards.redeemed) }]),
    ...(rewards.balance === undefined
      ? []
      : [{ label: "Rewards balance", amount: figure(rewards.balance) }]),
  ];
  const section = doc.struct("Sect");
  root.add(section);
  drawFlowTable(
    doc,
    flow,
    section,
    {
      title: REWARDS_TITLE,
      headingTag: "H2",
      intro:
        rewards.unit === "POINTS"
          ? "Points your card earned this period, by rewards category."
          : "Cash back your card earned this period, by rewards category.",
      columns: [
        { header: "Rewards category", width: CONTENT_WIDTH - 160 },
        { header: "Earned this period", width: 160, align: "right", tabular: true },
      ],
      rowHeaders: true,
      rows,
      totals,
      keepTogether: parts.length <= 12,
    },
    accent,
  );
  section.end();
  flow.y += 14;
}
