import { useState } from 'react';
import { STORAGE_KEYS } from '../../../lib/storage-keys.ts';

export type SidePanel = 'palette' | 'panel';
export type SidePanels = Record<SidePanel, boolean>;

const SHOWN: SidePanels = { palette: true, panel: true };

function remembered(): SidePanels {
  try {
    const saved = JSON.parse(localStorage.getItem(STORAGE_KEYS.workflowPanels) ?? 'null') as Partial<SidePanels> | null;
    return { palette: saved?.palette !== false, panel: saved?.panel !== false };
  } catch {
    return SHOWN;
  }
}

/**
 * The editor's node list (left) and settings panel (right) can be hidden for a larger canvas; the
 * choice is remembered on this device, as a person who hides them once wants them hidden next time.
 */
export function useSidePanels() {
  const [shown, setShown] = useState(remembered);
  const set = (which: SidePanel, value: boolean) =>
    setShown((previous) => {
      if (previous[which] === value) return previous;
      const next = { ...previous, [which]: value };
      localStorage.setItem(STORAGE_KEYS.workflowPanels, JSON.stringify(next));
      return next;
    });
  return { shown, set, toggle: (which: SidePanel) => set(which, !shown[which]) };
}
