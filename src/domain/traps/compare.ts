/** Whether two template sketches are of the same page. PLACEHOLDER until domain/similarity lands. */
export const sameTemplate = (a: string, b: string): boolean => a === b;

/** A page's sketches: of its main text, and of its template. PLACEHOLDER until domain/similarity lands. */
export function pageSketches(text: string, _url: string): { text: string | null; template: string | null } {
  const t = text.trim();
  return t === '' ? { text: null, template: null } : { text: t.slice(0, 16), template: t.slice(0, 16) };
}
