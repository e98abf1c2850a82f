/** Pages of `size` items that `count` items fill: at least 1, so an empty list is "Page 1 of 1", and a last
 * partial page counts (the spec's floor of count over size would hide it: spec README, "Page count"). */
export function pageCountOf(count: number, size: number): number {
  return Math.max(1, Math.ceil(count / size));
}
