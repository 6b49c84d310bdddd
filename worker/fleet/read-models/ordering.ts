/**
 * Positions of `items` sorted by `sortKeyOf` in `direction`, unknown values last and ties by name
 * rank (then id, which the rank already breaks), or by name rank alone without `sortKeyOf`: a total
 * order, so pages never overlap or skip an entry while the read model is unchanged.
 */
export function sortedPositions<T>(
  items: readonly T[],
  nameRank: Int32Array,
  sortKeyOf: ((item: T) => number | string | null) | null,
  direction: "asc" | "desc",
): Int32Array {
  const positions = Int32Array.from(items, (_, i) => i);
  const sign = direction === "asc" ? 1 : -1;
  if (sortKeyOf === null) {
    positions.sort((a, b) => ((nameRank[a] as number) - (nameRank[b] as number)) * sign);
    return positions;
  }
  const values = items.map(sortKeyOf);
  positions.sort((a, b) => {
    const left = values[a] ?? null;
    const right = values[b] ?? null;
    const byName = (nameRank[a] as number) - (nameRank[b] as number);
    if (left === null || right === null) {
      if (left === right) return byName;
      return left === null ? 1 : -1;
    }
    return left === right ? byName : (left < right ? -1 : 1) * sign;
  });
  return positions;
}
