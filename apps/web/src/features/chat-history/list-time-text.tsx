import { useTranslation } from 'react-i18next';
import { dateOf, listTimeOf } from './chat-time.ts';

/** "刚刚", "5 分钟前", "昨天", "4月1日": when a conversation last moved; the list passes one shared clock. */
export function ListTimeText({ iso, zone, now }: { iso: string; zone: string; now: number }) {
  const { t, i18n } = useTranslation();
  const time = listTimeOf(iso, now, zone);
  switch (time.kind) {
    case 'justNow':
      return t('chatHistory.time.justNow');
    case 'minutes':
      return t('chatHistory.time.minutesAgo', { count: time.count });
    case 'hours':
      return t('chatHistory.time.hoursAgo', { count: time.count });
    case 'yesterday':
      return t('chatHistory.time.yesterday');
    case 'days':
      return t('chatHistory.time.daysAgo', { count: time.count });
    default:
      return dateOf(iso, zone, i18n.language, time.sameYear);
  }
}
