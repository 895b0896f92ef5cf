/**
 * oslo.upgradecheck's result table: one box per check with its name, result
 * and details, the details wrapped at 60 columns with a two-space hanging
 * indent (Python's textwrap.wrap(details, 60, subsequent_indent='  ')).
 * Unlike textwrap, line breaks the details contain are kept. Pure.
 */
import { renderBoxTable } from './box-table.ts';
import type { CheckCode, UpgradeCheckRow } from './upgrade-check.ts';

const RESULT_TEXT: Readonly<Record<CheckCode, string>> = {
  success: 'Success',
  warning: 'Warning',
  failure: 'Failure',
};

const WRAP_WIDTH = 60;
const INDENT = '  ';

/** Greedy word wrap: lines of at most `width` characters; over-long words are cut. */
export function wrapText(text: string, width = WRAP_WIDTH, indent = INDENT): string[] {
  const lines: string[] = [];
  for (const paragraph of text.split('\n')) {
    const words = paragraph.split(/\s+/).filter((word) => word.length > 0);
    let line = '';
    let prefix = lines.length === 0 ? '' : indent;
    for (let word of words) {
      for (;;) {
        const candidate = line === '' ? prefix + word : `${line} ${word}`;
        if (candidate.length <= width) {
          line = candidate;
          break;
        }
        if (line !== '') {
          lines.push(line);
          line = '';
          prefix = indent;
          continue;
        }
        // A word longer than a line: cut it.
        const room = width - prefix.length;
        lines.push(prefix + word.slice(0, room));
        word = word.slice(room);
        prefix = indent;
      }
    }
    if (line !== '') lines.push(line);
  }
  return lines;
}

/** The check results as `upgrade check`'s table. */
export function renderUpgradeCheckTable(rows: readonly UpgradeCheckRow[]): string {
  return renderBoxTable(
    ['Upgrade Check Results'],
    rows.map((row) => {
      const details = row.details === undefined ? 'None' : wrapText(row.details).join('\n');
      return [`Check: ${row.name}\nResult: ${RESULT_TEXT[row.code]}\nDetails: ${details}`];
    }),
    { ruleBetweenRows: true },
  );
}
