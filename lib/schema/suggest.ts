/** "Did you mean" hints for misspelled keys and names. */

function distance(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j];
      previous[j] = Math.min(previous[j] + 1, previous[j - 1] + 1, diagonal + (a[i - 1] === b[j - 1] ? 0 : 1));
      diagonal = above;
    }
  }
  return previous[b.length];
}

/** The candidate closest to `input`, if close enough to be a likely typo. */
export function closestMatch(input: string, candidates: Iterable<string>): string | undefined {
  const lower = input.toLowerCase();
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const score = candidate.toLowerCase() === lower ? 0 : distance(lower, candidate.toLowerCase());
    if (score < bestDistance) {
      best = candidate;
      bestDistance = score;
    }
  }
  const allowed = Math.max(1, Math.floor(input.length / 3));
  return bestDistance <= allowed ? best : undefined;
}

/** ` (did you mean "x"?)`, or `''` when nothing is close. */
export function didYouMean(input: string, candidates: Iterable<string>): string {
  const match = closestMatch(input, candidates);
  return match === undefined || match === input ? '' : ` (did you mean ${JSON.stringify(match)}?)`;
}
