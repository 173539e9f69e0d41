import { useCallback } from 'react';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { baseOption, Chart } from './Chart.tsx';
import { day, figure, percent } from './format.ts';
import type { Palette } from './palette.ts';
import { FiguresTable } from './FiguresTable.tsx';

export const PostureChartPointFragment = graphql(`
  fragment PostureChartPoint on PosturePoint {
    date
    coveragePercentage
    score
    validated
    total
  }
`);

/** Coverage percentage and organisation score per day with a snapshot. */
export function PostureChart(props: { points: readonly FragmentType<typeof PostureChartPointFragment>[] }) {
  const points = useFragment(PostureChartPointFragment, props.points);
  const option = useCallback(
    (palette: Palette) => ({
      ...baseOption(palette),
      xAxis: {
        type: 'category' as const,
        data: points.map((point) => day(point.date)),
        axisLabel: { color: palette.muted },
        axisLine: { lineStyle: { color: palette.grid } },
      },
      yAxis: {
        type: 'value' as const,
        max: 100,
        axisLabel: { color: palette.muted },
        splitLine: { lineStyle: { color: palette.grid } },
      },
      series: [
        {
          type: 'line' as const,
          name: 'Coverage %',
          symbol: 'circle',
          symbolSize: 8,
          data: points.map((point) => point.coveragePercentage),
        },
        {
          type: 'line' as const,
          name: 'Score',
          symbol: 'rect',
          symbolSize: 8,
          connectNulls: true,
          lineStyle: { type: 'dashed' as const },
          data: points.map((point) => point.score),
        },
      ],
    }),
    [points],
  );
  const first = points[0];
  const last = points.at(-1);
  return (
    <Chart
      title="Posture history"
      option={option}
      summary={
        first && last
          ? `${points.length} snapshots: coverage from ${percent(first.coveragePercentage)} on ${day(first.date)} to ${percent(last.coveragePercentage)} on ${day(last.date)}.`
          : 'No snapshot in this period yet.'
      }
      table={
        <FiguresTable
          caption="Posture history"
          columns={['Day', 'Coverage', 'Score', 'Validated techniques']}
          rows={points}
          rowKey={(point) => point.date}
          cells={(point) => [
            day(point.date),
            percent(point.coveragePercentage),
            figure(point.score),
            `${point.validated} of ${point.total}`,
          ]}
        />
      }
    />
  );
}
