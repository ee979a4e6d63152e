import { App } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { copySelection, pasteClipboard, redo, removeSelection, undo, useEditorStore } from './editor-store.ts';

const typing = (target: EventTarget | null) =>
  target instanceof HTMLElement && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));

/** Ctrl/Cmd+Z, Shift+Ctrl+Z or Ctrl+Y, Ctrl+C, Ctrl+V, Delete — never while typing in a field. */
export function useShortcuts() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (typing(event.target)) return;
      const mod = event.ctrlKey || event.metaKey;
      const key = event.key.toLowerCase();
      const readOnly = useEditorStore.getState().readOnly;
      if (mod && key === 'z') {
        event.preventDefault();
        if (event.shiftKey) redo();
        else undo();
      } else if (mod && key === 'y') {
        event.preventDefault();
        redo();
      } else if (mod && key === 'c') {
        const count = copySelection();
        if (count) void message.success(t('workflowEditor.clipboard.copied', { count }));
      } else if (mod && key === 'v' && !readOnly) {
        event.preventDefault();
        pasteClipboard();
      } else if ((key === 'delete' || key === 'backspace') && !readOnly) {
        event.preventDefault();
        removeSelection();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [message, t]);
}
