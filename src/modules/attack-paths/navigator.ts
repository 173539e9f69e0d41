import type { AttackStepExpectation, AttackStepOutcome } from '../../generated/prisma/enums.ts';
import type { Services } from '../../services.ts';
import { layerOf, type Annotation } from '../scores/layer.ts';
import { getExecution } from './executions.ts';
import { getAttackPath } from './service.ts';

type Shown = AttackStepOutcome | 'unrecorded';

/** Colour of each outcome, from the attacker's success (red) to the defence's (green). */
export const OUTCOME_COLORS: Record<Shown, string> = {
  succeeded: '#d73027',
  not_detected: '#fc8d59',
  detected: '#91cf60',
  blocked: '#1a9850',
  skipped: '#969696',
  unrecorded: '#d9d9d9',
};

/** A technique in several steps takes the colour of its weakest one: earlier in this list wins. */
const WEAKEST_FIRST: readonly Shown[] = ['succeeded', 'not_detected', 'detected', 'blocked', 'skipped', 'unrecorded'];

const LABELS: Record<Shown, string> = {
  succeeded: 'Succeeded',
  not_detected: 'Not detected',
  detected: 'Detected',
  blocked: 'Blocked',
  skipped: 'Skipped',
  unrecorded: 'Not recorded',
};

interface LayerStep {
  position: number;
  shown: Shown;
  /** Completes "Step 2 of 5: …". */
  text: string;
  technique: { ttpId: string; tactics: string[]; isSubtechnique: boolean; parentTtpId: string | null };
}

const TECHNIQUE = { select: { ttpId: true, tactics: true, isSubtechnique: true, parentTtpId: true } } as const;

/** One annotation per technique: its steps in order in the comment, the weakest outcome as colour, the first step as score. */
function annotationsOf(steps: readonly LayerStep[]): Annotation[] {
  const byTechnique = new Map<string, LayerStep[]>();
  for (const step of steps) byTechnique.set(step.technique.ttpId, [...(byTechnique.get(step.technique.ttpId) ?? []), step]);
  return [...byTechnique.values()].map((group) => {
    const shown = WEAKEST_FIRST.find((candidate) => group.some((step) => step.shown === candidate))!;
    const { technique } = group[0];
    return {
      ttpId: technique.ttpId,
      tactics: technique.tactics,
      isSubtechnique: technique.isSubtechnique,
      parentTtpId: technique.parentTtpId,
      score: group[0].position,
      color: OUTCOME_COLORS[shown],
      comment: group.map((step) => `Step ${step.position} of ${steps.length}: ${step.text}`).join('; '),
      metadata: [
        { name: 'steps', value: group.map((step) => step.position).join(', ') },
        { name: 'outcome', value: shown },
      ],
    };
  });
}

const legend = (shown: readonly Shown[]) => shown.map((item) => ({ label: LABELS[item], color: OUTCOME_COLORS[item] }));
/** The score is the step number; the colours are set per technique, so the gradient only spans the steps. */
const stepGradient = (count: number) => ({ colors: ['#ffffff', '#66b2ff'], minValue: 1, maxValue: Math.max(count, 2) });

const EXPECTATIONS: readonly AttackStepExpectation[] = ['not_detected', 'detected', 'blocked'];

/** The path's techniques coloured by the outcome expected of their steps, the step order in the comments. */
export async function attackPathLayer(services: Services, id: string) {
  await getAttackPath(services, id, { select: { id: true } });
  const path = await services.prisma.attackPath.findUniqueOrThrow({
    where: { id },
    include: { steps: { orderBy: { position: 'asc' }, include: { technique: TECHNIQUE } } },
  });
  const steps = path.steps.map((step) => ({
    position: step.position,
    shown: step.expectedOutcome,
    text: `expected ${step.expectedOutcome}${step.notes ? ` (${step.notes})` : ''}`,
    technique: step.technique,
  }));
  return layerOf(services, {
    name: `Attack path: ${path.name}`,
    description: `The ${steps.length} steps of attack path "${path.name}": colour = expected outcome, score = step number.`,
    platform: null,
    annotations: annotationsOf(steps),
    gradient: stepGradient(steps.length),
    legendItems: legend(EXPECTATIONS),
    expanded: 'annotated',
    metadata: [
      { name: 'source', value: 'attack_path' },
      { name: 'attack_path_id', value: path.id },
      { name: 'steps', value: String(steps.length) },
    ],
  });
}

/** The execution's techniques coloured by the recorded outcome of their steps (grey while unrecorded). */
export async function executionLayer(services: Services, id: string) {
  await getExecution(services, id, { select: { id: true } });
  const execution = await services.prisma.attackPathExecution.findUniqueOrThrow({
    where: { id },
    include: { steps: { orderBy: { position: 'asc' }, include: { technique: TECHNIQUE } } },
  });
  const steps = execution.steps.map((step) => ({
    position: step.position,
    shown: step.outcome ?? ('unrecorded' as const),
    text:
      `${step.outcome ?? 'not recorded'} (expected ${step.expectedOutcome})` +
      (step.occurredAt ? ` at ${step.occurredAt.toISOString()}` : '') +
      (step.outcomeNotes ? `: ${step.outcomeNotes}` : ''),
    technique: step.technique,
  }));
  return layerOf(services, {
    name: `Attack path execution: ${execution.pathName}`,
    description: `Execution ${execution.id} (${execution.status}) of attack path "${execution.pathName}": colour = recorded outcome, score = step number.`,
    platform: null,
    annotations: annotationsOf(steps),
    gradient: stepGradient(steps.length),
    legendItems: legend(WEAKEST_FIRST),
    expanded: 'annotated',
    metadata: [
      { name: 'source', value: 'attack_path_execution' },
      { name: 'execution_id', value: execution.id },
      { name: 'status', value: execution.status },
      ...(execution.pathId ? [{ name: 'attack_path_id', value: execution.pathId }] : []),
    ],
  });
}
