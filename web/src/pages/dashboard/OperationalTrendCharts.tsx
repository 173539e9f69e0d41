import { useCallback } from 'react';
import { type FragmentType, graphql, useFragment } from '../../gql';
import { baseOption, Chart } from './Chart.tsx';
import { day, duration, figure, hours, percent } from './format.ts';
import type { Palette } from './palette.ts';
import { FiguresTable } from './FiguresTable.tsx';

export const OperationalWeekPointFragment = graphql(`
  fragment OperationalWeekPoint on OperationalWeek {
    weekStart
    mttd { meanSeconds count }
    mttr { meanHours count }
    efficacy { rate tests }
  }
`);

const axes = (palette: Palette, weeks: readonly { weekStart: string }[], unit: string) => ({
  xAxis: {
    type: 'category' as const,
    data: weeks.map((week) => day(week.weekStart)),
    axisLabel: { color: palette.muted },
    axisLine: { lineStyle: { color: palette.grid } },
  },
  yAxis: {
    type: 'value' as const,
    name: unit,
    nameTextStyle: { color: palette.muted },
    axisLabel: { color: palette.muted },
    splitLine: { lineStyle: { color: palette.grid } },
  },
});

/** Weekly MTTD and MTTR (hours), and weekly detection efficacy (%), each with its figures as a table. */
export function OperationalTrendCharts(props: { weeks: readonly FragmentType<typeof OperationalWeekPointFragment>[] }) {
  const weeks = useFragment(OperationalWeekPointFragment, props.weeks);
  const times = useCallback(
    (palette: Palette) => ({
      ...baseOption(palette),
      ...axes(palette, weeks, 'hours'),
      series: [
        {
          type: 'line' as const,
          name: 'Mean time to detect',
          connectNulls: true,
          symbol: 'circle',
          symbolSize: 8,
          data: weeks.map((week) => hours(week.mttd.meanSeconds)),
        },
        {
          type: 'line' as const,
          name: 'Mean time to remediate',
          connectNulls: true,
          symbol: 'rect',
          symbolSize: 8,
          lineStyle: { type: 'dashed' as const },
          data: weeks.map((week) => (week.mttr.meanHours == null ? null : Math.round(week.mttr.meanHours * 10) / 10)),
        },
      ],
    }),
    [weeks],
  );
  const efficacy = useCallback(
    (palette: Palette) => ({
      ...baseOption(palette),
      color: [palette.series[1]],
      ...axes(palette, weeks, '%'),
      yAxis: { ...axes(palette, weeks, '%').yAxis, max: 100 },
      series: [
        {
          type: 'line' as const,
          name: 'Detection efficacy',
          connectNulls: true,
          symbol: 'triangle',
          symbolSize: 9,
          data: weeks.map((week) => week.efficacy.rate),
        },
      ],
    }),
    [weeks],
  );
  const measured = weeks.filter((week) => week.efficacy.tests > 0).length;
  const range = weeks.length ? `${weeks.length} weeks from ${day(weeks[0].weekStart)}` : 'No week';
  return (
    <>
      <Chart
        title="Time to detect and to remediate, per week"
        option={times}
        summary={`${range}: mean time to detect and mean time to remediate in hours; weeks without a measure are skipped.`}
        table={
          <FiguresTable
            caption="Time to detect and to remediate, per week"
            columns={['Week of', 'Mean time to detect', 'Detections', 'Mean time to remediate', 'Remediations']}
            rows={weeks}
            rowKey={(week) => week.weekStart}
            cells={(week) => [
              day(week.weekStart),
              duration(week.mttd.meanSeconds),
              week.mttd.count,
              duration(week.mttr.meanHours == null ? null : week.mttr.meanHours * 3600),
              week.mttr.count,
            ]}
          />
        }
      />
      <Chart
        title="Detection efficacy, per week"
        option={efficacy}
        summary={`${range}: ${measured} with evaluated tests.`}
        table={
          <FiguresTable
            caption="Detection efficacy, per week"
            columns={['Week of', 'Efficacy', 'Tests']}
            rows={weeks}
            rowKey={(week) => week.weekStart}
            cells={(week) => [day(week.weekStart), percent(week.efficacy.rate), figure(week.efficacy.tests)]}
          />
        }
      />
    </>
  );
}
