import { ATTACHMENT_DOWNLOAD_PATH, type CustomBusinessAttachment } from '@athena/contract';
import { ApiError, requestHeaders, settleResponse } from '../../lib/api-client.ts';

/**
 * Downloads an attachment through the authorised route (it needs the session headers, so a plain
 * link cannot do it) and saves it under its original name.
 */
export async function downloadAttachment(attachment: CustomBusinessAttachment): Promise<void> {
  let response: Response;
  try {
    response = await fetch(ATTACHMENT_DOWNLOAD_PATH, {
      method: 'POST',
      headers: requestHeaders('application/json'),
      body: JSON.stringify({ id: attachment.id }),
    });
  } catch {
    throw new ApiError('', undefined, 'network');
  }
  // Failures come back as the JSON envelope; the file itself never is JSON.
  if (!response.ok || (response.headers.get('content-type') ?? '').includes('application/json')) {
    settleResponse(response, await response.text());
    throw new ApiError('', undefined, 'http', false, response.status);
  }
  const url = URL.createObjectURL(await response.blob());
  const link = document.createElement('a');
  link.href = url;
  link.download = attachment.name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
