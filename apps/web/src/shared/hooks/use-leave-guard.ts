import { App } from 'antd';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/** The confirmation's texts, translated by the caller (what is at stake differs per page). */
export interface LeaveTexts {
  title: string;
  text: string;
  ok: string;
  stay: string;
}

/**
 * While `active` (unsaved changes, uploads running), leaving the page asks first: in the app with
 * a confirmation, closing or reloading the tab with the browser's own prompt.
 */
export function useLeaveGuard(active: boolean, texts: LeaveTexts) {
  const { modal } = App.useApp();
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => active && currentLocation.pathname !== nextLocation.pathname,
  );
  const { title, text, ok, stay } = texts;

  useEffect(() => {
    if (blocker.state !== 'blocked') return;
    modal.confirm({
      title,
      content: text,
      okText: ok,
      cancelText: stay,
      okButtonProps: { danger: true },
      onOk: () => blocker.proceed(),
      onCancel: () => blocker.reset(),
    });
  }, [blocker, modal, title, text, ok, stay]);

  useEffect(() => {
    if (!active) return;
    const warn = (event: BeforeUnloadEvent) => event.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [active]);
}
