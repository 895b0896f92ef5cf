/**
 * Numbers written as the real service's `json.dumps` writes them (pure). Python tells ints
 * from floats where JavaScript has one number type: a float always shows a decimal point or
 * an exponent (`4.0`, `1e+16`, `1e-05`, `NaN`, `Infinity`), an int all its digits however
 * large (`int()` of a float is exact: 799999999999999931465206857728, not 8e+29). Answers
 * that hold such numbers carry them as PythonNumber and are written with pythonJsonText.
 */

/** A number kept as the JSON text Python would write for it. */
export class PythonNumber {
  readonly json: string;
  constructor(json: string) {
    this.json = json;
  }
}

/** `json.dumps` of a Python float: `repr()`, with NaN and the infinities as JSON's extensions. */
export function pythonFloat(value: number): PythonNumber {
  if (Number.isNaN(value)) return new PythonNumber('NaN');
  if (!Number.isFinite(value)) return new PythonNumber(value > 0 ? 'Infinity' : '-Infinity');
  if (value === 0) return new PythonNumber(Object.is(value, -0) ? '-0.0' : '0.0');
  const magnitude = Math.abs(value);
  // repr() switches to an exponent below 1e-4 and from 1e16, with at least two digits in it;
  // the digits are the shortest that read back the same double, as JavaScript's.
  if (magnitude < 1e-4 || magnitude >= 1e16) {
    const [mantissa, exponent] = value.toExponential().split('e') as [string, string];
    const sign = exponent.startsWith('-') ? '-' : '+';
    return new PythonNumber(`${mantissa}e${sign}${exponent.replace(/^[+-]/, '').padStart(2, '0')}`);
  }
  const text = String(value);
  return new PythonNumber(text.includes('.') ? text : `${text}.0`);
}

/** `int()` of a float (towards zero), all its digits. */
export function pythonIntOfFloat(value: number): number | PythonNumber {
  const truncated = Math.trunc(value);
  if (Number.isSafeInteger(truncated)) return truncated;
  if (!Number.isFinite(truncated)) return pythonFloat(truncated);
  return new PythonNumber(BigInt(truncated).toString());
}

/**
 * A JSON number literal as `json.loads` reads it and `json.dumps` writes it back: an int
 * (no fraction, no exponent) exactly, a float by its repr.
 */
export function pythonLiteral(literal: string): PythonNumber {
  if (/^-?\d+$/.test(literal)) return new PythonNumber(BigInt(literal).toString());
  if (literal === 'NaN' || literal === 'Infinity' || literal === '-Infinity') {
    return new PythonNumber(literal);
  }
  return pythonFloat(Number(literal));
}

/** JSON.stringify, with PythonNumber values written as their text. */
export function pythonJsonText(value: unknown): string {
  if (value instanceof PythonNumber) return value.json;
  if (Array.isArray(value))
    return `[${value.map((item) => pythonJsonText(item ?? null)).join(',')}]`;
  if (value !== null && typeof value === 'object') {
    const members: string[] = [];
    for (const [key, item] of Object.entries(value)) {
      if (item !== undefined) members.push(`${JSON.stringify(key)}:${pythonJsonText(item)}`);
    }
    return `{${members.join(',')}}`;
  }
  return JSON.stringify(value) ?? 'null';
}
