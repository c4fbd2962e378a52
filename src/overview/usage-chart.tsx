// Requests per day by status class, drawn on the server as SVG (no script, no inline style: the
// colours are the stylesheet's classes) and given to screen readers as the table it is drawn from.

/** The status classes the chart stacks, bottom to top, with their labels. */
const CLASSES = [
  { statusClass: 2, label: "2xx" },
  { statusClass: 3, label: "3xx" },
  { statusClass: 4, label: "4xx" },
  { statusClass: 5, label: "5xx" },
] as const;

type StatusClass = (typeof CLASSES)[number];

export interface DayBar {
  /** The day, as `YYYY-MM-DD`. */
  day: string;
  /** Requests by status class: 2 for 2xx, 3 for 3xx, and so on. */
  byClass: Record<number, number>;
}

const WIDTH = 720;
const HEIGHT = 200;
const LEFT = 48;
const BOTTOM = 24;
const TOP = 8;
/**
 * The room a date label needs on the axis, in the drawing's units: "MM-DD" in the stylesheet's
 * 11px type is about 35 wide, and the rest keeps neighbouring labels from touching.
 */
const LABEL_ROOM = 44;

/** A round number at or above `n`, for the top of the scale. */
function scaleTop(n: number): number {
  if (n <= 5) return 5;
  const magnitude = 10 ** Math.floor(Math.log10(n));
  for (const step of [1, 2, 5, 10]) if (step * magnitude >= n) return step * magnitude;
  return 10 * magnitude;
}

const totalOf = (bar: DayBar) => Object.values(bar.byClass).reduce((a, b) => a + b, 0);

/**
 * Whether the day at `index` of `count` carries a date label. Labels are counted back from the
 * last day, so today always has one, a week apart (or a whole number of weeks, when a week of bars
 * is narrower than a label): evenly spaced, no two can overlap.
 */
function hasDateLabel(index: number, count: number, slot: number): boolean {
  const weeks = Math.max(1, Math.ceil(LABEL_ROOM / (7 * slot)));
  return (count - 1 - index) % (7 * weeks) === 0;
}

/** The bars, their scale and their date labels; hidden from screen readers, who get the table. */
function UsageDrawing({ days, shown }: { days: DayBar[]; shown: readonly StatusClass[] }) {
  const top = scaleTop(Math.max(0, ...days.map(totalOf)));
  const plotHeight = HEIGHT - TOP - BOTTOM;
  const slot = (WIDTH - LEFT) / Math.max(1, days.length);
  const barWidth = Math.max(2, slot * 0.7);
  const y = (n: number) => TOP + plotHeight - (n / top) * plotHeight;
  return (
    <svg
      viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
      width="100%"
      aria-hidden="true"
      focusable="false"
      class="usage-chart"
    >
      <line class="axis" x1={LEFT} y1={y(0)} x2={WIDTH} y2={y(0)} />
      <line class="grid" x1={LEFT} y1={y(top)} x2={WIDTH} y2={y(top)} />
      <text class="tick" x={LEFT - 6} y={y(0)} text-anchor="end" dominant-baseline="middle">
        0
      </text>
      <text class="tick" x={LEFT - 6} y={y(top)} text-anchor="end" dominant-baseline="middle">
        {top.toLocaleString("en")}
      </text>
      {days.map((bar, i) => {
        const x = LEFT + i * slot + (slot - barWidth) / 2;
        let base = 0;
        return (
          <g>
            <title>{`${bar.day}: ${shown
              .map((c) => `${(bar.byClass[c.statusClass] ?? 0).toLocaleString("en")} ${c.label}`)
              .join(", ")}`}</title>
            {shown.map((c) => {
              const n = bar.byClass[c.statusClass] ?? 0;
              if (n === 0) return null;
              const rect = (
                <rect
                  class={`bar bar-${c.label}`}
                  x={x.toFixed(1)}
                  y={y(base + n).toFixed(1)}
                  width={barWidth.toFixed(1)}
                  height={(y(base) - y(base + n)).toFixed(1)}
                />
              );
              base += n;
              return rect;
            })}
            {hasDateLabel(i, days.length, slot) && (
              <text
                class="tick"
                x={(x + barWidth / 2).toFixed(1)}
                y={HEIGHT - 6}
                text-anchor="middle"
              >
                {bar.day.slice(5)}
              </text>
            )}
          </g>
        );
      })}
    </svg>
  );
}

/** The figures the drawing shows, as a table for screen readers. */
function UsageTable({ days, shown }: { days: DayBar[]; shown: readonly StatusClass[] }) {
  return (
    <table class="visually-hidden">
      <caption>Requests per day by status class</caption>
      <thead>
        <tr>
          <th scope="col">Day</th>
          {shown.map((c) => (
            <th scope="col">{c.label}</th>
          ))}
          <th scope="col">All</th>
        </tr>
      </thead>
      <tbody>
        {days.map((bar) => (
          <tr>
            <th scope="row">{bar.day}</th>
            {shown.map((c) => (
              <td>{bar.byClass[c.statusClass] ?? 0}</td>
            ))}
            <td>{totalOf(bar)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** The chart and its table; `days` are consecutive, oldest first. */
export function UsageChart({ days }: { days: DayBar[] }) {
  // Redirects are rare in this API: 3xx has a colour only when a day had one.
  const shown = CLASSES.filter(
    (c) => c.statusClass !== 3 || days.some((d) => (d.byClass[3] ?? 0) > 0),
  );
  return (
    <figure class="usage">
      <figcaption id="usage-caption">
        Requests per day, last {days.length} days (UTC), by status:{" "}
        {shown.map((c) => (
          <span class={`key key-${c.label}`}>{c.label} </span>
        ))}
      </figcaption>
      <UsageDrawing days={days} shown={shown} />
      <UsageTable days={days} shown={shown} />
    </figure>
  );
}
