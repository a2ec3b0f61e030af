import { svcrcDocsLink } from '../../lib/schema/svcrc-docs-sections';
import { formatProblemPath, type SvcrcProblem } from '../../lib/schema/svcrc.errors';

/** `✖ path: message`, then the section of the package's docs/svcrc.md that explains the key. */
export function svcrcProblemLines(problem: SvcrcProblem): string {
  return `✖ ${formatProblemPath(problem.path)}: ${problem.message}\n  see ${svcrcDocsLink(problem.path)} in @svc/nest`;
}
