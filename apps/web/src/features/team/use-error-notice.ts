import { App } from 'antd';
import { useCallback } from 'react';
import { ApiError, errorText } from '../../lib/api-client.ts';
import { currentLocale } from '../../lib/i18n.ts';

/** True when the API client already reacted (session expired, space gone: the page reloads). */
export const isHandled = (error: unknown) => error instanceof ApiError && error.handled;

/** Shows a failed call's message as a toast, unless the API client already handled it. */
export function useErrorNotice() {
  const { message } = App.useApp();
  return useCallback(
    (error: unknown) => {
      if (!isHandled(error)) void message.error(errorText(error, currentLocale()));
    },
    [message],
  );
}
