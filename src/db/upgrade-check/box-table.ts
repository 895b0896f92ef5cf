/**
 * A plain-text table with box rules, the look of the prettytable output that
 * OpenStack's status and manage commands print. Cells may hold several lines.
 * Pure: returns the text, prints nothing.
 */

export interface BoxTableOptions {
  /** A rule between every row (oslo.upgradecheck's `hrules=ALL`); default only around the header. */
  readonly ruleBetweenRows?: boolean;
  /** Right-align these columns (numbers); the others are left-aligned. */
  readonly alignRight?: readonly number[];
}

export function renderBoxTable(
  header: readonly string[],
  rows: readonly (readonly string[])[],
  options: BoxTableOptions = {},
): string {
  const split = (cell: string | undefined) => (cell ?? '').split('\n');
  const widths = header.map((title, column) =>
    Math.max(
      ...split(title).map((line) => line.length),
      ...rows.flatMap((row) => split(row[column]).map((line) => line.length)),
    ),
  );
  const rule = `+${widths.map((w) => '-'.repeat(w + 2)).join('+')}+`;
  const renderRow = (cells: readonly string[]): string[] => {
    const lines = cells.map(split);
    const height = Math.max(1, ...lines.map((cell) => cell.length));
    return Array.from({ length: height }, (_, i) => {
      const parts = widths.map((width, column) => {
        const text = lines[column]?.[i] ?? '';
        return options.alignRight?.includes(column) ? text.padStart(width) : text.padEnd(width);
      });
      return `| ${parts.join(' | ')} |`;
    });
  };
  const out = [rule, ...renderRow(header), rule];
  rows.forEach((row, i) => {
    out.push(...renderRow(row));
    if (options.ruleBetweenRows && i < rows.length - 1) out.push(rule);
  });
  if (rows.length > 0) out.push(rule);
  return out.join('\n');
}
