import type { CoverageCounts, TacticCoverage } from './coverage.ts';

export interface ExecutiveFigures {
  coverage: CoverageCounts;
  strongestTactic: TacticCoverage | null;
  weakestTactic: TacticCoverage | null;
  testsValidatedLast30Days: number;
  openRemediation: number;
  efficacyRate: number | null;
  efficacyTests: number;
}

const percent = (value: number) => `${value.toFixed(1)}%`;
const count = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

function coverageSentence({ total, validated, partial, notCovered, inProgress, notEvaluated, coveragePercentage }: CoverageCounts): string {
  if (total === 0) return 'No active technique is in the catalog yet, so coverage cannot be measured.';
  const open = inProgress + notEvaluated;
  return (
    `Coverage stands at ${percent(coveragePercentage)} across ${count(total, 'active technique', 'active techniques')}: ` +
    `${validated} validated, ${partial} partially covered, ${notCovered} not covered and ${open} not yet concluded.`
  );
}

function tacticSentence(strongest: TacticCoverage | null, weakest: TacticCoverage | null): string | null {
  if (!strongest || !weakest) return null;
  if (strongest.shortName === weakest.shortName)
    return `${strongest.tactic} is the only tactic with techniques (${percent(strongest.coveragePercentage)} covered).`;
  if (strongest.coveragePercentage === weakest.coveragePercentage)
    return `Every tactic stands at ${percent(strongest.coveragePercentage)} coverage.`;
  return (
    `The strongest tactic is ${strongest.tactic} (${percent(strongest.coveragePercentage)}) ` +
    `and the weakest is ${weakest.tactic} (${percent(weakest.coveragePercentage)}).`
  );
}

/** The executive summary as sentences, written from the figures alone. */
export function narrate(figures: ExecutiveFigures): string[] {
  const validated = figures.testsValidatedLast30Days;
  const sentences = [
    coverageSentence(figures.coverage),
    tacticSentence(figures.strongestTactic, figures.weakestTactic),
    validated === 0
      ? 'No test was validated in the last 30 days.'
      : `${count(validated, 'test was', 'tests were')} validated in the last 30 days.`,
    figures.openRemediation === 0
      ? 'No remediation is open.'
      : `${count(figures.openRemediation, 'remediation item is', 'remediation items are')} open.`,
    figures.efficacyRate === null
      ? null
      : `Detection efficacy is ${percent(figures.efficacyRate)} over ${count(figures.efficacyTests, 'standing test result', 'standing test results')}.`,
  ];
  return sentences.filter((sentence): sentence is string => sentence !== null);
}
