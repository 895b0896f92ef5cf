/**
 * The fenced code blocks of a markdown file, each with the comment line just above it (a
 * `<!-- not run: … -->` marker), for the tests that run what the documents show.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export interface CodeBlock {
  /** The line of the opening fence, from 1. */
  readonly line: number;
  /** The comment just before the block (`<!-- example -->`), if any. */
  readonly marker: string | undefined;
  /** The lines between the fences, without a final newline. */
  readonly body: string;
}

/** The code blocks of `file`, a path under `root`. */
export function codeBlocksOf(root: string, file: string): CodeBlock[] {
  const lines = readFileSync(join(root, file), 'utf8').split('\n');
  const blocks: CodeBlock[] = [];
  for (let i = 0; i < lines.length; i++) {
    if (!lines[i]?.startsWith('```')) continue;
    const end = lines.indexOf('```', i + 1);
    const before = lines[i - 1]?.trim() ?? '';
    blocks.push({
      line: i + 1,
      marker: /^<!--.*-->$/.test(before) ? before : undefined,
      body: lines.slice(i + 1, end).join('\n'),
    });
    i = end;
  }
  return blocks;
}
