import { AGENT_SCENE_ID, SCENE_SOURCE, type Scene } from '@athena/contract';

/** Scenes with chat history: every customer-service scene, not the agents' one nor "undefined". */
export const isChatScene = (type: number) => type !== AGENT_SCENE_ID && type !== SCENE_SOURCE.undefined;

export const chatScenesOf = (scenes: readonly Scene[]) => scenes.filter((scene) => isChatScene(scene.type));

/**
 * The scene to show: the first candidate (the address, then the stored choice, then the
 * deployment's default) that is a chat scene of this deployment, else its first chat scene; null
 * when it has none.
 */
export function resolveScene(candidates: readonly (string | number | null)[], scenes: readonly Scene[]): number | null {
  const offered = chatScenesOf(scenes).map((scene) => scene.type);
  for (const candidate of candidates) {
    if (candidate === null || candidate === '') continue;
    const type = Number(candidate);
    if (Number.isInteger(type) && offered.includes(type)) return type;
  }
  return offered[0] ?? null;
}
