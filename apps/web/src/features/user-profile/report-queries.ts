import { profileReportRoutes, REPORT_EXPORT_PATH, type ReportFilter } from '@athena/contract';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ApiError, api, requestHeaders, settleResponse } from '../../lib/api-client.ts';
import { exportFileName } from '../billing/usage-export.ts';

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

/**
 * Downloads the report as CSV. The route needs the session headers, so a plain link cannot do it:
 * the answer is read here and saved through a Blob link; a refusal is thrown as its ApiError.
 */
export async function downloadReportCsv(filter: ReportFilter): Promise<string> {
  let response: Response;
  try {
    response = await fetch(REPORT_EXPORT_PATH, {
      method: 'POST',
      headers: requestHeaders('application/json'),
      body: JSON.stringify(filter),
    });
  } catch {
    throw new ApiError('', undefined, 'network');
  }
  if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/csv')) {
    settleResponse(response, await response.text());
    throw new ApiError('', undefined, 'http', false, response.status);
  }
  const name = exportFileName(response.headers.get('content-disposition'), new Date());
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
