import { type ReactNode, useEffect, useRef } from 'react';
import { type ChartOption, init } from './echarts.ts';
import { type Palette, usePalette } from './palette.ts';

/** Common look of every chart: the theme's text and grid colours, no animation, room for the axis labels. */
export function baseOption(palette: Palette): ChartOption {
  return {
    animation: false,
    color: palette.series,
    textStyle: { color: palette.text, fontFamily: 'Inter Variable, system-ui, sans-serif' },
    grid: { left: 8, right: 16, top: 36, bottom: 8, containLabel: true },
    legend: { top: 0, textStyle: { color: palette.text } },
  };
}

interface ChartProps {
  /** The chart's option for the theme's palette. */
  option: (palette: Palette) => ChartOption;
  /** Heading of the figure. */
  title: string;
  /** The figures in words: one sentence shown under the chart. */
  summary: ReactNode;
  /** The figures as a table, visually hidden: the chart's text alternative. */
  table: ReactNode;
  height?: number;
}

/**
 * An ECharts chart drawn as SVG, hidden from assistive technology, with its figures as a caption and a table. The
 * text in the SVG is drawn by ECharts as SVG text nodes, never parsed as markup.
 */
export function Chart({ option, title, summary, table, height = 260 }: ChartProps) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<ReturnType<typeof init> | null>(null);
  const palette = usePalette();

  useEffect(() => {
    if (!element.current) return;
    const instance = init(element.current, null, { renderer: 'svg' });
    chart.current = instance;
    const resize = new ResizeObserver(() => instance.resize());
    resize.observe(element.current);
    return () => {
      resize.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    chart.current?.setOption(option(palette), { notMerge: true });
  }, [option, palette]);

  return (
    <figure className="chart">
      <figcaption>
        <h2>{title}</h2>
        <p className="hint chart-summary">{summary}</p>
      </figcaption>
      <div ref={element} className="chart-canvas" style={{ height }} aria-hidden="true" />
      {table}
    </figure>
  );
}
