/**
 * A timezone-aware instant that remembers the UTC offset it was written with,
 * as Python's aware datetime does: `+05:30` stays `+05:30` on the wire, and
 * `Z`/`UTC` is kept apart from an explicit `+00:00`. Precision is the
 * microsecond. Immutable.
 */

const PARSE_PATTERN =
  /^(\d{4})-?(\d{2})-?(\d{2})(?:[T ](\d{2})(?::?(\d{2})(?::?(\d{2})(?:[.,](\d+))?)?)?)?\s*(Z|[+-]\d{2}(?::?\d{2})?)?$/i;

function pad(value: number, width: number): string {
  return String(value).padStart(width, '0');
}

function offsetLabel(offsetMinutes: number): string {
  const sign = offsetMinutes < 0 ? '-' : '+';
  const abs = Math.abs(offsetMinutes);
  return `${sign}${pad(Math.floor(abs / 60), 2)}:${pad(abs % 60, 2)}`;
}

const DAYS_IN_MONTH = [31, 29, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];

/** Days from 1970-01-01 to a proleptic Gregorian date, by arithmetic (Date.UTC costs more). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra =
    yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

function digitsAt(text: string, start: number, count: number): number {
  let value = 0;
  for (let i = start; i < start + count; i++) {
    const digit = text.charCodeAt(i) - 48;
    if (digit < 0 || digit > 9) return -1;
    value = value * 10 + digit;
  }
  return value;
}

/**
 * The form Baton and oslo write, `YYYY-MM-DDTHH:MM:SS` then `Z` or `±hh:mm`,
 * read by position without a regex; undefined means "use the full parser".
 */
function parseCanonical(text: string): OffsetDateTime | null | undefined {
  const length = text.length;
  if (length !== 20 && length !== 25) return undefined;
  if (
    text[4] !== '-' ||
    text[7] !== '-' ||
    text[10] !== 'T' ||
    text[13] !== ':' ||
    text[16] !== ':'
  )
    return undefined;
  const year = digitsAt(text, 0, 4);
  const month = digitsAt(text, 5, 2);
  const day = digitsAt(text, 8, 2);
  const hour = digitsAt(text, 11, 2);
  const minute = digitsAt(text, 14, 2);
  const second = digitsAt(text, 17, 2);
  if (year < 100 || month < 1 || month > 12 || day < 1 || hour < 0 || minute < 0 || second < 0)
    return undefined;
  let offset = 0;
  let zoneName = 'UTC';
  if (length === 20) {
    if (text[19] !== 'Z') return undefined;
  } else {
    const sign = text[19];
    const offsetHours = digitsAt(text, 20, 2);
    const offsetMinutes = digitsAt(text, 23, 2);
    if ((sign !== '+' && sign !== '-') || text[22] !== ':' || offsetHours < 0 || offsetMinutes < 0)
      return undefined;
    offset = (sign === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
    zoneName = text.slice(19);
  }
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const maxDay = month === 2 && !leap ? 28 : (DAYS_IN_MONTH[month - 1] as number);
  if (day > maxDay || hour > 23 || minute > 59 || second > 59 || Math.abs(offset) >= 24 * 60)
    return null;
  const epochSeconds =
    daysFromCivil(year, month, day) * 86_400 + hour * 3600 + minute * 60 + second - offset * 60;
  return OffsetDateTime.fromEpoch(epochSeconds, 0, offset, zoneName);
}

/**
 * A date and time with its UTC offset, to the microsecond, as Python's aware datetime is (naive
 * when it has no offset).
 */
export class OffsetDateTime {
  /** Whole seconds since the Unix epoch, UTC. */
  readonly epochSeconds: number;
  /** Microseconds within the second, 0..999999. */
  readonly micros: number;
  /** Offset from UTC of the wall-clock time, in minutes. */
  readonly offsetMinutes: number;
  /** `UTC` for Z or a naive input; otherwise the offset label such as `+05:30`. */
  readonly zoneName: string;
  /** True for a naive (timezone-unaware) value: the wall-clock time is kept, no zone. */
  readonly naive: boolean;
  #primitive: string | undefined;

  private constructor(
    epochSeconds: number,
    micros: number,
    offsetMinutes: number,
    zoneName: string,
    naive: boolean,
  ) {
    this.epochSeconds = epochSeconds;
    this.micros = micros;
    this.offsetMinutes = offsetMinutes;
    this.zoneName = zoneName;
    this.naive = naive;
  }

  /** From an instant and the offset to show it at (internal to the parsers). */
  static fromEpoch(
    epochSeconds: number,
    micros: number,
    offsetMinutes: number,
    zoneName: string,
  ): OffsetDateTime {
    return new OffsetDateTime(epochSeconds, micros, offsetMinutes, zoneName, false);
  }

  /** A UTC instant from a JavaScript Date (millisecond precision). */
  static fromDate(date: Date): OffsetDateTime {
    const ms = date.getTime();
    if (Number.isNaN(ms)) throw new RangeError('invalid Date');
    const seconds = Math.floor(ms / 1000);
    return new OffsetDateTime(seconds, (ms - seconds * 1000) * 1000, 0, 'UTC', false);
  }

  /** From wall-clock fields at a given offset. */
  static fromFields(
    fields: {
      year: number;
      month: number;
      day: number;
      hour?: number;
      minute?: number;
      second?: number;
      micros?: number;
    },
    offsetMinutes = 0,
    zoneName?: string,
    naive = false,
  ): OffsetDateTime {
    const { year, month, day, hour = 0, minute = 0, second = 0, micros = 0 } = fields;
    if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) {
      throw new RangeError('date or time field out of range');
    }
    if (!Number.isInteger(micros) || micros < 0 || micros > 999_999) {
      throw new RangeError('microseconds out of range');
    }
    if (Math.abs(offsetMinutes) >= 24 * 60) throw new RangeError('UTC offset out of range');
    const date = new Date(0);
    date.setUTCFullYear(year, month - 1, day);
    date.setUTCHours(hour, minute, second, 0);
    if (date.getUTCDate() !== day || date.getUTCMonth() !== month - 1) {
      throw new RangeError('day is out of range for month');
    }
    const epochSeconds = date.getTime() / 1000 - offsetMinutes * 60;
    const zone = naive
      ? 'UTC'
      : (zoneName ?? (offsetMinutes === 0 ? 'UTC' : offsetLabel(offsetMinutes)));
    return new OffsetDateTime(epochSeconds, micros, naive ? 0 : offsetMinutes, zone, naive);
  }

  /**
   * Parses ISO 8601 as Python's iso8601 library does: extended or basic
   * format, `T` or a space, optional time, optional fraction after `.` or
   * `,`, and `Z`, `±hh:mm`, `±hhmm` or `±hh`. Without a zone the value is UTC.
   * Returns null when the text is not such a date.
   */
  static parse(text: string): OffsetDateTime | null {
    const fast = parseCanonical(text);
    if (fast !== undefined) return fast;
    const match = PARSE_PATTERN.exec(text.trim());
    if (!match) return null;
    const [, y, mo, d, h, mi, s, frac, zone] = match;
    let offset = 0;
    let zoneName = 'UTC';
    if (zone !== undefined && zone.toUpperCase() !== 'Z') {
      const digits = zone.slice(1).replace(':', '');
      const minutes = Number(digits.slice(0, 2)) * 60 + Number(digits.slice(2) || '0');
      offset = zone[0] === '-' ? -minutes : minutes;
      zoneName = offsetLabel(offset);
    }
    const micros = frac === undefined ? 0 : Number(`${frac}000000`.slice(0, 6));
    try {
      return OffsetDateTime.fromFields(
        {
          year: Number(y),
          month: Number(mo),
          day: Number(d),
          hour: Number(h ?? 0),
          minute: Number(mi ?? 0),
          second: Number(s ?? 0),
          micros,
        },
        offset,
        zoneName,
      );
    } catch {
      return null;
    }
  }

  /** The same wall-clock time without a zone (oslo's `tzinfo_aware=False`). */
  toNaive(): OffsetDateTime {
    if (this.naive) return this;
    return new OffsetDateTime(
      this.epochSeconds + this.offsetMinutes * 60,
      this.micros,
      0,
      'UTC',
      true,
    );
  }

  /** A naive value read as UTC (Python's iso8601 does the same for zone-less text). */
  toAware(): OffsetDateTime {
    if (!this.naive) return this;
    return new OffsetDateTime(this.epochSeconds, this.micros, 0, 'UTC', false);
  }

  /** The instant as a JavaScript Date (microseconds truncated to milliseconds). */
  toDate(): Date {
    return new Date(this.epochSeconds * 1000 + Math.floor(this.micros / 1000));
  }

  /** The wall-clock date and time at the stored offset, `YYYY-MM-DDTHH:MM:SS`. */
  #wallClock(): string {
    const wall = new Date((this.epochSeconds + this.offsetMinutes * 60) * 1000);
    const year = wall.getUTCFullYear();
    const yearText =
      year < 0 ? `-${pad(-year, 6)}` : year > 9999 ? `+${pad(year, 6)}` : pad(year, 4);
    return (
      `${yearText}-${pad(wall.getUTCMonth() + 1, 2)}-${pad(wall.getUTCDate(), 2)}` +
      `T${pad(wall.getUTCHours(), 2)}:${pad(wall.getUTCMinutes(), 2)}:${pad(wall.getUTCSeconds(), 2)}`
    );
  }

  /**
   * The oslo wire form: seconds precision (oslo drops microseconds), then
   * `Z` for UTC or naive values, else the offset (`+05:30`, `+00:00`).
   * Unlike oslo, years below 1000 are zero-padded so they parse back.
   */
  toPrimitive(): string {
    if (this.#primitive === undefined) {
      const suffix = this.zoneName === 'UTC' ? 'Z' : this.zoneName;
      this.#primitive = this.#wallClock() + suffix;
    }
    return this.#primitive;
  }

  /** Python's `isoformat()`: microseconds when non-zero, offset unless naive. */
  isoformat(): string {
    const fraction = this.micros === 0 ? '' : `.${pad(this.micros, 6)}`;
    return this.#wallClock() + fraction + (this.naive ? '' : offsetLabel(this.offsetMinutes));
  }

  /** Same instant, offset and zone name. */
  equals(other: OffsetDateTime): boolean {
    return (
      this.epochSeconds === other.epochSeconds &&
      this.micros === other.micros &&
      this.offsetMinutes === other.offsetMinutes &&
      this.zoneName === other.zoneName &&
      this.naive === other.naive
    );
  }

  /** The ISO 8601 text, as JSON. */
  toJSON(): string {
    return this.toPrimitive();
  }

  /** The ISO 8601 text. */
  toString(): string {
    return this.isoformat();
  }
}
