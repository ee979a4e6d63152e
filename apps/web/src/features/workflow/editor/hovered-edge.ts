import { create } from 'zustand';

// The edge under the pointer shows its remove button. Leaving waits a moment: the pointer passes
// from the line onto the button, and the button must not vanish on the way.
let leaving: ReturnType<typeof setTimeout> | undefined;

export const useHoveredEdge = create<{ id: string | null; enter: (id: string) => void; leave: (id: string) => void }>()(
  (set, get) => ({
    id: null,
    enter: (id) => {
      clearTimeout(leaving);
      set({ id });
    },
    leave: (id) => {
      clearTimeout(leaving);
      leaving = setTimeout(() => {
        if (get().id === id) set({ id: null });
      }, 200);
    },
  }),
);
