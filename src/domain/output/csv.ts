/** CSV as RFC 4180 has it: fields with a comma, quote or line break are quoted, quotes doubled; CRLF rows. */

export function csvField(value: string | number | null | undefined): string {
  if (value === null || value === undefined) return '';
  const text = String(value);
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(values: readonly (string | number | null | undefined)[]): string {
  return `${values.map(csvField).join(',')}\r\n`;
}
