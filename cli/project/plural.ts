/** `1 entity`, `2 entities`: a count and its noun, for CLI messages. */
export function plural(n: number, singular: string, pluralForm = `${singular}s`): string {
  return `${n} ${n === 1 ? singular : pluralForm}`;
}
