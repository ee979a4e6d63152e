import { profileReportRoutes, REPORT_EXPORT_PATH, type ReportFilter } from '@athena/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '../../lib/api-client.ts';
import { downloadCsv } from '../../lib/download-csv.ts';

/** A report of the scene (the API client sends the scene as its scene-id header). */
export function useReport(spaceId: string | null, sceneId: number | null, filter: ReportFilter | null) {
  return useQuery({
    queryKey: ['profile', 'report', spaceId, sceneId, filter],
    queryFn: () => api(profileReportRoutes.reportOverview, filter ?? {}),
    enabled: Boolean(spaceId) && sceneId !== null && filter !== null,
    // A new range keeps the old charts (dimmed) instead of flashing empty.
    placeholderData: keepPreviousData,
    staleTime: 0,
  });
}

/** Downloads the report as CSV (lib/download-csv.ts). */
export const downloadReportCsv = (filter: ReportFilter) => downloadCsv(REPORT_EXPORT_PATH, filter, 'athena-report');
