/** JSON text parsed, or null when it is not JSON (stored or received text, validated by a schema next). */
export function parseJsonOrNull(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
