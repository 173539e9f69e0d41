import { useCallback } from 'react';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { baseOption, Chart } from './Chart.tsx';
import { percent } from './format.ts';
import type { Palette } from './palette.ts';
import { FiguresTable } from './FiguresTable.tsx';

export const TacticCoverageBarFragment = graphql(`
  fragment TacticCoverageBar on TacticCoverage {
    tactic
    shortName
    coveragePercentage
    validated
    partial
    total
  }
`);

/** Coverage percentage per tactic, as horizontal bars in matrix order (first tactic on top). */
export function TacticCoverageChart(props: { tactics: readonly FragmentType<typeof TacticCoverageBarFragment>[] }) {
  const tactics = useFragment(TacticCoverageBarFragment, props.tactics);
  const option = useCallback(
    (palette: Palette) => ({
      ...baseOption(palette),
      legend: { show: false },
      grid: { left: 8, right: 48, top: 8, bottom: 8, containLabel: true },
      xAxis: {
        type: 'value' as const,
        max: 100,
        axisLabel: { color: palette.muted, formatter: '{value}%' },
        splitLine: { lineStyle: { color: palette.grid } },
      },
      yAxis: {
        type: 'category' as const,
        inverse: true,
        data: tactics.map((tactic) => tactic.tactic),
        axisLabel: { color: palette.text, width: 160, overflow: 'truncate' as const },
        axisLine: { lineStyle: { color: palette.grid } },
      },
      series: [
        {
          type: 'bar' as const,
          name: 'Coverage',
          data: tactics.map((tactic) => tactic.coveragePercentage),
          label: { show: true, position: 'right' as const, color: palette.text, formatter: '{c}%' },
        },
      ],
    }),
    [tactics],
  );
  const best = tactics.reduce<(typeof tactics)[number] | undefined>(
    (top, tactic) => (!top || tactic.coveragePercentage > top.coveragePercentage ? tactic : top),
    undefined,
  );
  return (
    <Chart
      title="Coverage by tactic"
      option={option}
      height={Math.max(160, tactics.length * 26 + 24)}
      summary={
        tactics.length === 0
          ? 'No tactic yet.'
          : `${tactics.length} tactics; the best covered is ${best?.tactic} at ${percent(best?.coveragePercentage)}.`
      }
      table={
        <FiguresTable
          caption="Coverage by tactic"
          columns={['Tactic', 'Coverage', 'Validated', 'Partial', 'Techniques']}
          rows={tactics}
          rowKey={(tactic) => tactic.shortName}
          cells={(tactic) => [tactic.tactic, percent(tactic.coveragePercentage), tactic.validated, tactic.partial, tactic.total]}
        />
      }
    />
  );
}
