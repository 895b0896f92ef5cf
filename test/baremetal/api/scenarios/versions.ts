import type { Scenario } from './index.ts';

const HEADER_VALUES = [
  undefined,
  '1.1',
  '1.80',
  'latest',
  'LATEST',
  '01.05',
  ' 1.5 ',
  '+1.9',
  '1.1_0',
  '1.0',
  '1.81',
  '2.1',
  '-1.5',
  '0.1',
  'abc',
  '1',
  '1.2.3',
  '',
  '1.x',
];

export const VERSION_SCENARIOS: readonly Scenario[] = [
  {
    title: 'root and /v1 discovery at every kind of version header',
    steps: HEADER_VALUES.flatMap((version) => [
      { path: '/', version },
      { path: '/v1', version },
      { path: '/v1/', version },
    ]),
  },
  {
    title: '/v1 at each version from 1.1 to 1.80',
    steps: Array.from({ length: 80 }, (_, i) => ({
      path: '/v1',
      version: `1.${i + 1}`,
    })),
  },
  {
    title: 'version refusals and unknown paths',
    steps: HEADER_VALUES.flatMap((version) => [
      { path: '/v1/chassis', version },
      { path: '/v1/bogus', version },
      { path: '/chassis', version },
      { path: '/bogus', version },
    ]),
  },
  {
    title: 'methods /v1 and the root do not take',
    steps: [
      { method: 'POST', path: '/v1', version: '1.80' },
      { method: 'DELETE', path: '/v1/', version: '1.80' },
      { method: 'POST', path: '/', version: '1.80' },
      { method: 'PUT', path: '/v1/chassis', version: '1.80' },
    ],
  },
];
