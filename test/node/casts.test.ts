// Casts in src/: a type assertion (`x as T`, other than `as const`) tells the compiler something it
// cannot check, so each one carries a comment, on it or right above it, saying what guarantees
// it. Each cast without one is reported with its place.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";

const SRC = path.resolve(import.meta.dirname, "..", "..", "src");

/** Every source file of a folder, relative to src/. */
function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) ? [path.relative(SRC, file)] : [];
  });
}

/** One cast: where it is, and whether a comment says why. */
interface Cast {
  place: string;
  explained: boolean;
}

/** The lines above a line that belong to it: its comment block, up to a blank line or code. */
function commentAbove(lines: readonly string[], line: number): boolean {
  for (let at = line - 1; at >= 0; at--) {
    const text = lines[at]?.trim() ?? "";
    if (text.startsWith("//") || text.startsWith("*") || text.startsWith("/*")) return true;
    // A cast inside a multi-line expression: the comment may stand above the statement's start.
    if (text === "" || /[;{}]$/.test(text)) return false;
  }
  return false;
}

/** The type assertions of a source text, other than `as const`. */
function castsOf(file: string, text: string): Cast[] {
  const kind = file.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true, kind);
  const lines = text.split("\n");
  const casts: Cast[] = [];
  const visit = (node: ts.Node): void => {
    const assertion = ts.isAsExpression(node) || ts.isTypeAssertionExpression(node);
    if (assertion && !ts.isConstTypeReference(node.type)) {
      const start = source.getLineAndCharacterOfPosition(node.getStart()).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      const onIt = lines.slice(start, end + 1).some((line) => line.includes("//"));
      casts.push({
        place: `src/${file}:${start + 1}: ${lines[start]?.trim()}`,
        explained: onIt || commentAbove(lines, start),
      });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return casts;
}

describe("casts in src/", () => {
  it("each say why they hold", () => {
    const casts = sourceFiles().flatMap((file) =>
      castsOf(file, readFileSync(path.join(SRC, file), "utf8")),
    );
    // The scan finds the casts there are: some are explained.
    expect(casts.filter((cast) => cast.explained).length).toBeGreaterThan(0);
    const unexplained = casts.filter((cast) => !cast.explained).map((cast) => cast.place);
    expect(unexplained, unexplained.join("\n")).toEqual([]);
  });

  it("are found in every form, and a comment on or above them is seen", () => {
    const text = [
      "const a = x as string;",
      "const b = <number>y;",
      "const c = [1] as const;",
      "// The lookup above returned a row.",
      "const d = row as Row;",
      "const e = value as unknown as Other; // Checked by isOther.",
      "",
      "const f = call(",
      "  z as Z,",
      ");",
    ].join("\n");
    expect(castsOf("sample.ts", text)).toEqual([
      { place: "src/sample.ts:1: const a = x as string;", explained: false },
      { place: "src/sample.ts:2: const b = <number>y;", explained: false },
      { place: "src/sample.ts:5: const d = row as Row;", explained: true },
      {
        place: "src/sample.ts:6: const e = value as unknown as Other; // Checked by isOther.",
        explained: true,
      },
      {
        place: "src/sample.ts:6: const e = value as unknown as Other; // Checked by isOther.",
        explained: true,
      },
      { place: "src/sample.ts:9: z as Z,", explained: false },
    ]);
  });
});
