import { BarChart, type BarSeriesOption, LineChart, type LineSeriesOption } from 'echarts/charts';
import {
  GridComponent,
  type GridComponentOption,
  LegendComponent,
  type LegendComponentOption,
  TooltipComponent,
  type TooltipComponentOption,
} from 'echarts/components';
import { type ComposeOption, type EChartsType, init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';
import { useEffect, useRef } from 'react';

// Only what the product's charts draw (fees per day, the service reports): bars and lines on a
// grid, tooltips, legends, the canvas renderer. Imported only by lazily loaded charts, so ECharts
// stays out of every page's first load.
use([BarChart, LineChart, GridComponent, TooltipComponent, LegendComponent, CanvasRenderer]);

export type ChartOption = ComposeOption<
  BarSeriesOption | LineSeriesOption | GridComponentOption | TooltipComponentOption | LegendComponentOption
>;

/** One ECharts canvas that follows its box's size and takes a new option when it changes. */
export function EChart({ option, testId, height = 240 }: { option: ChartOption; testId: string; height?: number }) {
  const element = useRef<HTMLDivElement>(null);
  const chartRef = useRef<EChartsType | null>(null);
  useEffect(() => {
    const node = element.current;
    if (!node) return;
    const chart = init(node, undefined, { renderer: 'canvas' });
    chartRef.current = chart;
    const observer = new ResizeObserver(() => chart.resize());
    observer.observe(node);
    return () => {
      observer.disconnect();
      chart.dispose();
      chartRef.current = null;
    };
  }, []);
  useEffect(() => {
    chartRef.current?.setOption(option, true);
  }, [option]);
  return <div ref={element} style={{ width: '100%', height }} data-testid={testId} />;
}
