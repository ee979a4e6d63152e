import { useState } from 'react';
import { ANY_TIME, type TimeChoice } from '../../lib/time-range.ts';

/**
 * The filter of a billing records list: one choice (a kind, a status) or all, a time, and the
 * page. A new filter goes back to page 1, since the page the reader was on may not exist in it.
 */
export function useRecordsFilter<C extends string>() {
  const [choice, storeChoice] = useState<C | null>(null);
  const [time, storeTime] = useState<TimeChoice>(ANY_TIME);
  const [page, setPage] = useState(1);
  return {
    choice,
    time,
    page,
    setPage,
    /** Something narrows the list: an empty page then says nothing matched, not that there is nothing. */
    filtered: choice !== null || time.time !== '',
    choose(next: C | null) {
      storeChoice(next);
      setPage(1);
    },
    setTime(next: TimeChoice) {
      storeTime(next);
      setPage(1);
    },
  };
}

export type RecordsFilter<C extends string> = ReturnType<typeof useRecordsFilter<C>>;
