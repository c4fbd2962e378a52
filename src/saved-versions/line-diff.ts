// A line diff for showing two versions of a body side by side: which lines each side does not
// share with the other (longest common subsequence; bodies here are a few dozen lines).

export interface DiffLine {
  text: string;
  /** Not in the other side's text at this place. */
  changed: boolean;
}

export function diffLines(
  left: readonly string[],
  right: readonly string[],
): { left: DiffLine[]; right: DiffLine[] } {
  // lengths[i][j]: the longest common subsequence of left[i..] and right[j..].
  const lengths = Array.from({ length: left.length + 1 }, () =>
    new Array<number>(right.length + 1).fill(0),
  );
  for (let i = left.length - 1; i >= 0; i--) {
    const row = lengths[i];
    const below = lengths[i + 1];
    // Unreachable: lengths has a row for each i from 0 to left.length.
    if (!row || !below) throw new RangeError(`no row ${i} of ${lengths.length}`);
    for (let j = right.length - 1; j >= 0; j--) {
      row[j] =
        left[i] === right[j] ? (below[j + 1] ?? 0) + 1 : Math.max(below[j] ?? 0, row[j + 1] ?? 0);
    }
  }
  const keptLeft = new Set<number>();
  const keptRight = new Set<number>();
  for (let i = 0, j = 0; i < left.length && j < right.length; ) {
    if (left[i] === right[j]) {
      keptLeft.add(i++);
      keptRight.add(j++);
    } else if ((lengths[i + 1]?.[j] ?? 0) >= (lengths[i]?.[j + 1] ?? 0)) i++;
    else j++;
  }
  return {
    left: left.map((text, i) => ({ text, changed: !keptLeft.has(i) })),
    right: right.map((text, j) => ({ text, changed: !keptRight.has(j) })),
  };
}
