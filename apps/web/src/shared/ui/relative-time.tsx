import { Tooltip } from 'antd';
import dayjs from 'dayjs';
import { useNow } from '../hooks/use-now.ts';

/**
 * "3 分钟前" / "3 minutes ago" (dayjs in the UI language), the exact local time on hover. Past
 * events never read as future ones when the server's clock runs a little ahead; `future` allows
 * "in 7 days" for expiry times.
 */
export function RelativeTime({ iso, future = false, testId }: { iso: string; future?: boolean; testId?: string }) {
  const now = useNow();
  const time = dayjs(iso);
  const shown = future ? time : dayjs(Math.min(time.valueOf(), now));
  return (
    <Tooltip title={time.format('YYYY-MM-DD HH:mm:ss')}>
      <span data-testid={testId} data-iso={iso} style={{ whiteSpace: 'nowrap' }}>
        {shown.from(now)}
      </span>
    </Tooltip>
  );
}
