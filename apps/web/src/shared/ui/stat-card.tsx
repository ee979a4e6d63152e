import { Card, Statistic, type StatisticProps } from 'antd';

/** A figure in a card, the same on every page that shows one (the dashboard, apps, …). */
export function StatCard(props: StatisticProps & { 'data-testid'?: string }) {
  return (
    <Card style={{ height: '100%' }}>
      <Statistic {...props} />
    </Card>
  );
}
