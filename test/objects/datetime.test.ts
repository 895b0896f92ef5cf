import assert from 'node:assert/strict';
import { test } from 'node:test';
import fc from 'fast-check';
import { OffsetDateTime } from '../../src/objects/index.ts';

test('ISO 8601 forms Python services send are read, keeping the offset', () => {
  const cases: [string, string, string][] = [
    ['2024-01-02T03:04:05Z', '2024-01-02T03:04:05+00:00', 'UTC'],
    ['2024-01-02T03:04:05+00:00', '2024-01-02T03:04:05+00:00', '+00:00'],
    ['2024-01-02T03:04:05.5-05:30', '2024-01-02T03:04:05.500000-05:30', '-05:30'],
    ['2024-01-02T03:04:05+0530', '2024-01-02T03:04:05+05:30', '+05:30'],
    ['2024-01-02T03:04:05,25+02', '2024-01-02T03:04:05.250000+02:00', '+02:00'],
    ['20240102T030405Z', '2024-01-02T03:04:05+00:00', 'UTC'],
    ['2024-01-02 03:04:05', '2024-01-02T03:04:05+00:00', 'UTC'],
    ['2024-01-02', '2024-01-02T00:00:00+00:00', 'UTC'],
  ];
  for (const [text, iso, zone] of cases) {
    const parsed = OffsetDateTime.parse(text);
    assert.ok(parsed, text);
    assert.equal(parsed.isoformat(), iso, text);
    assert.equal(parsed.zoneName, zone, text);
  }
});

test('nonsense and impossible dates are refused', () => {
  for (const text of [
    'garbage',
    '2024-02-30',
    '2024-13-01T00:00:00Z',
    '2024-01-02T24:00:00Z',
    '2024-01-02T03:04:05UTC+02:00',
  ]) {
    assert.equal(OffsetDateTime.parse(text), null, text);
  }
});

test('the wire form has seconds precision and Z for UTC; it reads back to the same instant', () => {
  fc.assert(
    fc.property(
      fc.date({
        min: new Date('0001-01-01T00:00:00Z'),
        max: new Date('9999-12-31T23:59:59Z'),
        noInvalidDate: true,
      }),
      (date) => {
        const value = OffsetDateTime.fromDate(date);
        const wire = value.toPrimitive();
        assert.match(wire, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        const back = OffsetDateTime.parse(wire);
        assert.equal(back?.epochSeconds, Math.floor(date.getTime() / 1000));
      },
    ),
  );
});

test('the quick reader of the canonical form agrees with the full ISO 8601 reader', () => {
  // `YYYY-MM-DDTHH:MM:SS±hh:mm` takes the positional reader; the basic form of the same
  // instant (`YYYYMMDDTHHMMSS±hhmm`) takes the regular expression and the calendar of Date.
  const two = (n: number) => String(n).padStart(2, '0');
  fc.assert(
    fc.property(
      fc.integer({ min: 100, max: 9999 }),
      fc.integer({ min: 1, max: 12 }),
      fc.integer({ min: 1, max: 31 }),
      fc.integer({ min: 0, max: 86_399 }),
      fc.integer({ min: -23 * 60 - 59, max: 23 * 60 + 59 }),
      (year, month, day, secondOfDay, offset) => {
        const date = `${String(year).padStart(4, '0')}-${two(month)}-${two(day)}`;
        const time = `${two(Math.floor(secondOfDay / 3600))}:${two(Math.floor(secondOfDay / 60) % 60)}:${two(secondOfDay % 60)}`;
        const zone = `${offset < 0 ? '-' : '+'}${two(Math.floor(Math.abs(offset) / 60))}:${two(Math.abs(offset) % 60)}`;
        const quick = OffsetDateTime.parse(`${date}T${time}${zone}`);
        const full = OffsetDateTime.parse(
          `${date.replaceAll('-', '')}T${time.replaceAll(':', '')}${zone.replace(':', '')}`,
        );
        assert.equal(quick?.epochSeconds, full?.epochSeconds);
        assert.equal(quick?.offsetMinutes, full?.offsetMinutes);
        if (quick !== null) assert.equal(quick.isoformat(), `${date}T${time}${zone}`);
      },
    ),
    { numRuns: 2000 },
  );
});
