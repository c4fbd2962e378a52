// A dependency-free SVG line chart: p50 (solid) and p99 (dashed) latency against page depth.

export interface Series {
  name: string;
  color: string;
  points: { depth: number; p50: number; p99: number }[];
}

const WIDTH = 720;
const HEIGHT = 400;
const MARGIN = { left: 64, right: 24, top: 40, bottom: 56 };

/** A round step giving about five ticks up to `max`. */
function tickStep(max: number): number {
  const raw = max / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 2.5, 5, 10].find((s) => s * magnitude >= raw) ?? 10;
  return step * magnitude;
}

const escapeXml = (text: string) =>
  text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

export function depthChart(series: Series[]): string {
  const all = series.flatMap((s) => s.points).filter((p) => Number.isFinite(p.p99));
  const maxDepth = Math.max(1, ...all.map((p) => p.depth));
  const yStep = tickStep(Math.max(0.1, ...all.map((p) => p.p99)) * 1.05);
  const maxY = Math.ceil((Math.max(0.1, ...all.map((p) => p.p99)) * 1.05) / yStep) * yStep;
  const plotW = WIDTH - MARGIN.left - MARGIN.right;
  const plotH = HEIGHT - MARGIN.top - MARGIN.bottom;
  const round = (n: number) => Math.round(n * 10) / 10;
  const x = (depth: number) => round(MARGIN.left + (depth / maxDepth) * plotW);
  const y = (ms: number) => round(MARGIN.top + plotH - (ms / maxY) * plotH);
  const hline = (at: number, color: string) =>
    `<line x1="${MARGIN.left}" x2="${WIDTH - MARGIN.right}" y1="${at}" y2="${at}" ` +
    `stroke="${color}"/>`;

  const parts: string[] = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" ` +
      `viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="14">` +
      "Statements page latency against page depth (limit=10)</text>",
  ];
  for (let v = 0; v <= maxY + 1e-9; v += yStep) {
    parts.push(
      hline(y(v), "#e9ecef"),
      `<text x="${MARGIN.left - 8}" y="${y(v) + 4}" text-anchor="end">${+v.toFixed(3)}</text>`,
    );
  }
  const xStep = tickStep(maxDepth);
  for (let d = 0; d <= maxDepth + 1e-9; d += xStep) {
    parts.push(
      `<text x="${x(d)}" y="${HEIGHT - MARGIN.bottom + 18}" text-anchor="middle">` +
        `${d.toLocaleString("en")}</text>`,
    );
  }
  parts.push(
    hline(y(0), "#495057"),
    `<line x1="${MARGIN.left}" x2="${MARGIN.left}" y1="${MARGIN.top}" y2="${y(0)}" ` +
      'stroke="#495057"/>',
    `<text x="${MARGIN.left + plotW / 2}" y="${HEIGHT - 14}" text-anchor="middle">` +
      "statements before the page (cursor depth)</text>",
    `<text transform="translate(16 ${MARGIN.top + plotH / 2}) rotate(-90)" text-anchor="middle">` +
      "latency (ms)</text>",
  );
  series.forEach((s, i) => {
    const points = [...s.points].sort((a, b) => a.depth - b.depth);
    for (const [metric, dash] of [
      ["p50", ""],
      ["p99", ' stroke-dasharray="5 4"'],
    ] as const) {
      const path = points.map((p) => `${x(p.depth)},${y(p[metric])}`);
      parts.push(
        `<polyline fill="none" stroke="${s.color}" stroke-width="2"${dash} ` +
          `points="${path.join(" ")}"/>`,
      );
    }
    for (const p of points) {
      parts.push(`<circle cx="${x(p.depth)}" cy="${y(p.p50)}" r="3" fill="${s.color}"/>`);
    }
    const ly = MARGIN.top + 8 + i * 18;
    parts.push(
      `<line x1="${MARGIN.left + 12}" x2="${MARGIN.left + 36}" y1="${ly}" y2="${ly}" ` +
        `stroke="${s.color}" stroke-width="2"/>`,
      `<text x="${MARGIN.left + 42}" y="${ly + 4}">${escapeXml(s.name)} p50 (dashed: p99)</text>`,
    );
  });
  parts.push("</svg>");
  return `${parts.join("\n")}\n`;
}
