import {
  ATTACHMENT_DOWNLOAD_PATH,
  ATTACHMENT_NAME_HEADER,
  ATTACHMENT_UPLOAD_PATH,
  type CustomBusinessAttachment,
} from '@athena/contract';
import { ApiError, REQUEST_TIMEOUT_MS, requestHeaders, settleResponse } from '../../lib/api-client.ts';

export interface UploadHandle {
  promise: Promise<CustomBusinessAttachment>;
  abort: () => void;
}

/**
 * Uploads one attachment with XMLHttpRequest, the only browser API that reports upload progress.
 * It sends the API client's own headers and hands the answer to the client's envelope rules, so a
 * lapsed session or a lost space behaves exactly as on every other call.
 */
export function uploadAttachment(file: File, onProgress: (percent: number) => void): UploadHandle {
  const xhr = new XMLHttpRequest();
  const promise = new Promise<CustomBusinessAttachment>((resolve, reject) => {
    xhr.open('POST', ATTACHMENT_UPLOAD_PATH);
    xhr.timeout = REQUEST_TIMEOUT_MS;
    // The server decides the type by content, so the browser's guess is not sent.
    const headers = requestHeaders('application/octet-stream');
    for (const [name, value] of Object.entries(headers)) xhr.setRequestHeader(name, value);
    xhr.setRequestHeader(ATTACHMENT_NAME_HEADER, encodeURIComponent(file.name));
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0)
        onProgress(Math.min(99, Math.floor((event.loaded / event.total) * 100)));
    };
    xhr.onload = () => {
      try {
        resolve(
          settleResponse(
            { ok: xhr.status >= 200 && xhr.status < 300, status: xhr.status },
            xhr.responseText,
          ) as CustomBusinessAttachment,
        );
        onProgress(100);
      } catch (error) {
        reject(error);
      }
    };
    xhr.onerror = () => reject(new ApiError('', undefined, 'network'));
    xhr.ontimeout = () => reject(new ApiError('', undefined, 'timeout'));
    xhr.onabort = () => reject(new ApiError('', 'aborted', 'network', true));
    xhr.send(file);
  });
  return { promise, abort: () => xhr.abort() };
}

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
