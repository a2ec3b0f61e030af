/** `svc schema validate [--file <path>] [--json]`: every problem of a `.svcrc`, or a one-line summary. */
import { svcrcProblemLines } from '../project/svcrc-problem-lines';
import { resolve } from 'node:path';
import { SVCRC_FILE, readSvcrcFile } from '../../lib/schema/load-svcrc';
import { analyzeSvcrc } from '../project/analyze-svcrc';
import { formatProblemPath, type SvcrcProblem } from '../../lib/schema/svcrc.errors';
import { summarizeModel, summarizeRaw, type SvcrcSummary } from '../../lib/schema/summarize-svcrc';
import { defineCommand, type CliIo } from '../svc-command';

interface SchemaValidateOptions {
  readonly file: string;
  readonly json?: boolean;
}

export const EXIT_VALID = 0;
export const EXIT_INVALID = 1;

function countNoun(n: number, singular: string, plural: string): string {
  return `${n} ${n === 1 ? singular : plural}`;
}

interface Report {
  readonly file: string;
  /** False when the file could not be read at all. */
  readonly readable: boolean;
  readonly problems: readonly SvcrcProblem[];
  readonly summary: SvcrcSummary;
}

const EMPTY_SUMMARY: SvcrcSummary = { entities: 0, fields: 0, relationships: 0 };

function print(io: CliIo, { file, readable, problems, summary }: Report, json: boolean): void {
  const valid = problems.length === 0;
  if (json) {
    io.out(
      JSON.stringify(
        { valid, file: resolve(file), problems, summary: { ...summary, problems: problems.length } },
        null,
        2,
      ),
    );
    return;
  }
  if (valid) {
    io.out(
      `✔ ${file} is valid: ${countNoun(summary.entities, 'entity', 'entities')}, ` +
        `${countNoun(summary.fields, 'field', 'fields')}, ${countNoun(summary.relationships, 'relationship', 'relationships')}`,
    );
    return;
  }
  for (const problem of problems) io.out(readable ? svcrcProblemLines(problem) : `✖ ${formatProblemPath(problem.path)}: ${problem.message}`);
  if (readable) io.out(`${file} is invalid: ${countNoun(problems.length, 'problem', 'problems')}`);
}

export const schemaValidateCommand = defineCommand<SchemaValidateOptions>({
  path: ['schema', 'validate'],
  description: 'Check the .svcrc file and report every problem',
  configure: (command) =>
    command
      .option('-f, --file <path>', 'schema file to check', SVCRC_FILE)
      .option('--json', 'print the result as JSON: {valid, file, problems, summary}')
      .addHelpText(
        'after',
        '\nExit code 0 when the file is valid, 1 when it is invalid or cannot be read.\n\n' +
          'Examples:\n  $ svc schema validate\n  $ svc schema validate --file config/.svcrc --json',
      ),
  run: ({ options, io }) => {
    const json = options.json === true;
    const read = readSvcrcFile(options.file);
    if (!read.ok) {
      print(io, { file: options.file, readable: false, problems: [read.problem], summary: EMPTY_SUMMARY }, json);
      return EXIT_INVALID;
    }
    const { result, raw } = analyzeSvcrc(read.text);
    if (result.ok) {
      print(io, { file: options.file, readable: true, problems: [], summary: summarizeModel(result.model) }, json);
      return EXIT_VALID;
    }
    const summary = raw ? summarizeRaw(raw) : EMPTY_SUMMARY;
    print(io, { file: options.file, readable: true, problems: result.problems, summary }, json);
    return EXIT_INVALID;
  },
});
