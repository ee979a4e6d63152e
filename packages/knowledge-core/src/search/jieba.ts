import { Jieba } from '@node-rs/jieba';
import { dict } from '@node-rs/jieba/dict.js';

let instance: Jieba | null = null;

/** One segmenter per process, built on first use: loading the dictionary takes ~250 ms. */
export function jieba(): Jieba {
  instance ??= Jieba.withDict(dict);
  return instance;
}
