import { ApiError, requestHeaders, settleResponse } from './api-client.ts';

/** The name the server gives the file (Content-Disposition), else `<fallback>-<today>.csv`. */
export function exportFileName(disposition: string | null, today: Date, fallback = 'athena-export'): string {
  const star = disposition?.match(/filename\*=UTF-8''([^;]+)/i);
  if (star) {
    try {
      return decodeURIComponent(star[1].trim());
    } catch {
      // A malformed escape: fall through to the plain name.
    }
  }
  const plain = disposition?.match(/filename="?([^";]+)"?/i);
  if (plain) return plain[1].trim();
  const day = today.toISOString().slice(0, 10);
  return `${fallback}-${day}.csv`;
}

/**
 * Downloads what an export route answers for `body` as a CSV file (fee records, reports). The
 * routes need the session headers, so a plain link cannot do it: the answer is read here and saved
 * through a Blob link. A refusal comes back as the JSON envelope and is thrown as its ApiError (the
 * caller shows it). Answers the file's name.
 */
export async function downloadCsv(path: string, body: unknown, fallbackName: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(path, {
      method: 'POST',
      headers: requestHeaders('application/json'),
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError('', undefined, 'network');
  }
  if (!response.ok || !(response.headers.get('content-type') ?? '').includes('text/csv')) {
    settleResponse(response, await response.text());
    throw new ApiError('', undefined, 'http', false, response.status);
  }
  const name = exportFileName(response.headers.get('content-disposition'), new Date(), fallbackName);
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object after click() returns.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
  return name;
}
