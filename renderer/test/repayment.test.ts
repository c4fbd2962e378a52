// The minimum-payment repayment disclosure (Regulation Z, 12 CFR 1026.7(b)(12)): computed month by
// month from the new balance, the APR and the product's minimum-payment rule, checked against
// examples worked by hand, and shown on page 1 as the model form's table.
import { env } from "cloudflare:workers";
import { describe, expect, it } from "vitest";
import { disclosureRate, repaymentOf, statementRepayment } from "../src/repayment";
import type { StatementDocumentInput } from "../src/statement-document";
import { readPdf } from "./pdf-reader";
import { EVERY_LINE, SAMPLE_TERMS } from "./sample-statements";

describe("the repayment estimates, worked by hand", () => {
  it("pays $1,200.00 at 12% with 1% of the balance plus interest, at least $30: 52 months, $1,540", () => {
    // The rate is 12% / 12 = 1% a month. The rule asks 1% of the balance plus the month's
    // interest, at most 1% + 1% = 2% of $1,200.00 = $24.00, so the $30.00 floor is the payment
    // every month until the last: a level payment P = $30 on B = $1,200 at r = 1%.
    //   Balance after n payments: B(1+r)^n - P((1+r)^n - 1)/r, zero at
    //   n = -ln(1 - rB/P) / ln(1+r) = -ln(1 - 12/30) / ln(1.01) = 0.510826 / 0.00995033 = 51.34:
    //   51 payments of $30.00, and a 52nd of what is left.
    //   1.01^51 = 1.661078; after 51 payments 1,200 × 1.661078 - 30 × 66.1078 = $10.06 is left,
    //   the 52nd month adds $0.10 of interest: the last payment is $10.16.
    //   Total: 51 × $30.00 + $10.16 = $1,540.16, shown as $1,540 (whole dollars).
    // 36 months: the level payment at 1% over 36 months, B × r / (1 - 1.01^-36):
    //   1.01^36 = 1.430769, 1.01^-36 = 0.698925, 12 / 0.301075 = $39.857 → $39.86;
    //   36 × $39.86 = $1,434.96, shown as $1,435; savings $1,540 - $1,435 = $105.
    const rule = {
      percent_of_balance: "1",
      includes_interest_and_fees: false,
      minimum_amount: 3000,
    };
    expect(repaymentOf(120000, "12.00", rule, 2)).toEqual({
      minimum_payment: { months: 52, total_cost: 154016 },
      three_years: { monthly_payment: 3986, total_cost: 143496, savings: 10500 },
    });
  });

  it("pays $1,000.00 at 12% with 1% of the balance, at least $100: 11 months, no 36-month line", () => {
    // 1% of the balance (interest included) is at most $10.00: the $100.00 floor pays each month.
    //   month  interest (1%)  payment   left
    //     1       10.00       100.00   910.00
    //     2        9.10       100.00   819.10
    //     3        8.19       100.00   727.29
    //     4        7.27       100.00   634.56
    //     5        6.35       100.00   540.91
    //     6        5.41       100.00   446.32
    //     7        4.46       100.00   350.78
    //     8        3.51       100.00   254.29
    //     9        2.54       100.00   156.83
    //    10        1.57       100.00    58.40
    //    11        0.58        58.98     0.00
    // Total $1,058.98. Paid within 36 months, so no 36-month estimate is given.
    const rule = {
      percent_of_balance: "1",
      includes_interest_and_fees: true,
      minimum_amount: 10000,
    };
    expect(repaymentOf(100000, "12", rule, 2)).toEqual({
      minimum_payment: { months: 11, total_cost: 105898 },
    });
  });

  it("never pays off a balance whose minimum is less than its interest, and still gives 36 months", () => {
    // $5,000.00 at 29.99%: $124.96 of interest in the first month; 1% of the balance, interest
    // included, is $50.00 (the $25.00 floor does not bind): the balance only grows.
    // 36 months at 29.99% / 12 = 2.49917% a month: 5,000 × r / (1 - (1 + r)^-36) = $212.23.
    const rule = {
      percent_of_balance: "1",
      includes_interest_and_fees: true,
      minimum_amount: 2500,
    };
    expect(repaymentOf(500000, "29.99", rule, 2)).toEqual({
      minimum_payment: { months: null },
      three_years: { monthly_payment: 21223, total_cost: 764028 },
    });
  });

  it("repays at 0% in balance ÷ payment months, in whole yen, and saves nothing in 36 months", () => {
    const rule = {
      percent_of_balance: "0",
      includes_interest_and_fees: true,
      minimum_amount: 10000,
    };
    // ¥1,000,000 at ¥10,000 a month, no interest: 100 months. 36 months: ¥1,000,000 / 36 =
    // ¥27,777.8, ¥27,778 a month, ¥1,000,008 in all: the rounding's ¥8 is no saving.
    expect(repaymentOf(1000000, "0", rule, 0)).toEqual({
      minimum_payment: { months: 100, total_cost: 1000000 },
      three_years: { monthly_payment: 27778, total_cost: 1000008, savings: 0 },
    });
  });
});

describe("which disclosure a statement shows", () => {
  const rule = SAMPLE_TERMS.minimum_payment;
  const purchases = {
    balance_type: "PURCHASES" as const,
    annual_percentage_rate: "12.00",
    balance_subject_to_interest: 0,
    interest: 0,
  };
  const cash = {
    ...purchases,
    balance_type: "CASH_ADVANCES" as const,
    annual_percentage_rate: "29.99",
  };
  const transfers = {
    ...purchases,
    balance_type: "BALANCE_TRANSFERS" as const,
    annual_percentage_rate: "3.99",
  };

  it("assumes the purchases APR, or the highest APR when there is no purchases rate", () => {
    expect(disclosureRate([cash, purchases])).toBe("12.00");
    expect(disclosureRate([transfers, cash])).toBe("29.99");
    expect(disclosureRate([])).toBeUndefined();
    expect(disclosureRate(undefined)).toBeUndefined();
  });

  it("prefers the issuer's own figures, and computes none without a rule, a rate or a balance", () => {
    const statement = { ...EVERY_LINE.statement, interest_rates: [purchases] };
    const own = { minimum_payment: { months: 7, total_cost: 123400 } };
    expect(statementRepayment({ ...statement, repayment: own }, rule, 2)).toBe(own);
    expect(statementRepayment(statement, rule, 2)).toEqual(repaymentOf(123456, "12.00", rule, 2));
    expect(statementRepayment(statement, undefined, 2)).toBeUndefined();
    expect(statementRepayment(EVERY_LINE.statement, rule, 2)).toBeUndefined();
    expect(statementRepayment({ ...statement, statement_balance: 0 }, rule, 2)).toBeUndefined();
  });
});

describe("the disclosure on page 1", () => {
  const rates = [
    {
      balance_type: "PURCHASES" as const,
      annual_percentage_rate: "12.00",
      balance_subject_to_interest: 120000,
      interest: 1200,
    },
  ];
  const withRule = (statement: Partial<StatementDocumentInput["statement"]>) => ({
    ...EVERY_LINE,
    statement: { ...EVERY_LINE.statement, statement_balance: 120000, ...statement },
    product: {
      ...EVERY_LINE.product,
      minimum_payment: {
        percent_of_balance: "1",
        includes_interest_and_fees: false,
        minimum_amount: 3000,
      },
      credit_counseling_phone: "1-800-555-0199",
    },
  });
  const page1 = async (input: StatementDocumentInput) =>
    (await readPdf(await env.STATEMENT_RENDERER.render(input))).pageText[0] as string;

  it("shows the worked example as the model form's table, under the minimum payment warning", async () => {
    const text = await page1(withRule({ interest_rates: rates }));
    const at = (phrase: string) => text.indexOf(phrase);
    for (const phrase of [
      "Minimum Payment Warning: If you make only the minimum payment each period",
      "If you make no additional charges using this card and each month you pay… " +
        "You will pay off the balance shown on this statement in about… " +
        "And you will end up paying an estimated total of… " +
        "Only the minimum payment 4 years $1,540 $40 3 years $1,435 (Savings = $105)",
      "If you would like information about credit counseling services, call 1-800-555-0199.",
      "Account summary",
    ]) {
      expect(at(phrase), `${phrase} in ${text}`).toBeGreaterThanOrEqual(0);
    }
    expect(at("Minimum Payment Warning")).toBeLessThan(at("Only the minimum payment"));
    expect(at("call 1-800-555-0199")).toBeLessThan(at("Account summary"));
  });

  it("shows the issuer's own figures, in months under two years, without a 36-month line", async () => {
    const repayment = { minimum_payment: { months: 11, total_cost: 105898 } };
    const text = await page1(withRule({ repayment }));
    expect(text).toContain("Only the minimum payment 11 months $1,059");
    expect(text).not.toContain("3 years");
  });

  it("warns that the balance is never paid off when no minimum covers its interest", async () => {
    const repayment = {
      minimum_payment: { months: null },
      three_years: { monthly_payment: 21223, total_cost: 764028 },
    };
    const text = await page1(withRule({ repayment }));
    expect(text).toContain(
      "Minimum Payment Warning: Even if you make no more charges using this card, if you make " +
        "only the minimum payment each month we estimate you will never pay off the balance",
    );
    expect(text, text).toContain("$212 3 years $7,640");
    expect(text).not.toContain("Only the minimum payment");
    expect(text).not.toContain("Savings");
  });

  it("leaves the table out when there are no figures and no rule to compute them", async () => {
    const text = await page1({
      ...EVERY_LINE,
      statement: { ...EVERY_LINE.statement, interest_rates: rates },
    });
    expect(text).toContain("Minimum Payment Warning");
    expect(text).not.toContain("If you make no additional charges");
  });
});
