import { createRequire } from 'node:module';
import type { Jieba } from '@node-rs/jieba';

// Loaded on first use, synchronously (segmentation is a sync API): the module reads its 11 MB of
// dictionaries when imported, memory a server that never searches or indexes should not hold.
const load = createRequire(import.meta.url);
let instance: Jieba | null = null;

/** One segmenter per process, built on first use: loading the dictionary takes ~250 ms. */
export function jieba(): Jieba {
  if (!instance) {
    const { Jieba: Segmenter } = load('@node-rs/jieba') as typeof import('@node-rs/jieba');
    const { dict } = load('@node-rs/jieba/dict.js') as typeof import('@node-rs/jieba/dict.js');
    instance = Segmenter.withDict(dict);
  }
  return instance;
}
