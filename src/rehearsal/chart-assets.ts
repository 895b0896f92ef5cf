/**
 * Reads the charting library's browser build and stylesheet (the `uplot` package) for the HTML
 * report, from wherever Node resolves the package: the repository's node_modules or an
 * installed toolkit's.
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import type { ChartAssets } from './html-report.ts';

export async function readChartAssets(): Promise<ChartAssets> {
  const dist = dirname(createRequire(import.meta.url).resolve('uplot'));
  const [script, css] = await Promise.all([
    readFile(join(dist, 'uPlot.iife.min.js'), 'utf8'),
    readFile(join(dist, 'uPlot.min.css'), 'utf8'),
  ]);
  return { script, css };
}
