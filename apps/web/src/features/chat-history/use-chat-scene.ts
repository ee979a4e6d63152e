import { useSearchParams } from 'react-router';
import { STORAGE_KEYS } from '../../lib/storage-keys.ts';
import { PARAM } from './chat-filters.ts';
import { useScenes } from './chat-history-queries.ts';
import { chatScenesOf, resolveScene } from './chat-scene.ts';

/**
 * The scene the page reads: the address's `scene` (a shared link), else the stored choice, else the
 * deployment's default. The API client sends the stored scene as the `scene-id` header, so the
 * choice is written to storage before any call of this render is made.
 */
export function useChatScene() {
  const scenes = useScenes();
  const [search, setSearch] = useSearchParams();
  const items = scenes.data?.items ?? [];
  const sceneId = scenes.data
    ? resolveScene(
        [search.get(PARAM.scene), localStorage.getItem(STORAGE_KEYS.sceneId), scenes.data.default_scene_id],
        items,
      )
    : null;
  // During render, not in an effect: the children's queries start in their own effects, which run
  // before this component's, and must already send this scene.
  if (sceneId !== null && localStorage.getItem(STORAGE_KEYS.sceneId) !== String(sceneId)) {
    localStorage.setItem(STORAGE_KEYS.sceneId, String(sceneId));
  }

  /** Another scene: its own conversations and customers, so the open one and the customer filter go. */
  const setScene = (next: number) => {
    localStorage.setItem(STORAGE_KEYS.sceneId, String(next));
    setSearch(
      (previous) => {
        const params = new URLSearchParams(previous);
        params.set(PARAM.scene, String(next));
        for (const name of [PARAM.conversation, PARAM.anchor, PARAM.customerId, PARAM.customerName]) {
          params.delete(name);
        }
        return params;
      },
      { replace: true },
    );
  };

  return { scenes, options: chatScenesOf(items), sceneId, setScene };
}
