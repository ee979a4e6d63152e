import type { Language } from '@athena/contract';
import type { BuiltinTemplate } from './template-types.ts';
import { END, START } from './words.ts';

// Each language's users get the three targets they most often need; the ids stay the same.
const en = {
  text: 'Text to translate',
  targets: ['Simplified Chinese', 'Japanese', 'Spanish'],
  title: (target: string) => `Into ${target}`,
  system: (target: string) =>
    `You are a professional translator. Translate the user's text into ${target}. Keep the meaning, tone, formatting, names and numbers. Reply with the translation only.`,
  join: 'Put the translations together',
};
const words: Record<Language, typeof en> = {
  'zh-CN': {
    text: '要翻译的文本',
    targets: ['英语', '日语', '韩语'],
    title: (target) => `翻译成${target}`,
    system: (target) =>
      `你是一位专业译者。请把用户的文本翻译成${target}，保留原意、语气、格式、人名和数字。只回复译文。`,
    join: '合并译文',
  },
  'zh-TW': {
    text: '要翻譯的文字',
    targets: ['英文', '日文', '韓文'],
    title: (target) => `翻譯成${target}`,
    system: (target) =>
      `你是一位專業譯者。請把使用者的文字翻譯成${target}，保留原意、語氣、格式、人名和數字。只回覆譯文。`,
    join: '合併譯文',
  },
  en,
};

const IDS = ['translate_1', 'translate_2', 'translate_3'] as const;

export const translateParallel: BuiltinTemplate = {
  id: 'builtin-translate-parallel',
  category: 'content',
  name: { 'zh-CN': '同时翻译成三种语言', 'zh-TW': '同時翻譯成三種語言', en: 'Translate into three languages at once' },
  description: {
    'zh-CN':
      '三个翻译分支并行运行（英语、日语、韩语），再由模板节点合并成一份对照文本。可在各分支的提示词中换成你需要的语言。',
    'zh-TW':
      '三個翻譯分支平行執行（英文、日文、韓文），再由範本節點合併成一份對照文字。可在各分支的提示詞中換成你需要的語言。',
    en: 'Three translation branches run in parallel (Simplified Chinese, Japanese, Spanish), and a template node joins them into one side-by-side text. Change the language in each branch’s prompt to the ones you need.',
  },
  graph: (language) => {
    const w = words[language];
    const branches = IDS.map((id, at) => ({
      id,
      type: 'llm' as const,
      title: w.title(w.targets[at]!),
      position: { x: 320, y: at * 160 },
      data: { system_prompt: w.system(w.targets[at]!), user_prompt: '{{#start.text#}}', temperature: 0.2 },
    }));
    return {
      nodes: [
        {
          id: 'start',
          type: 'start',
          title: START[language],
          position: { x: 0, y: 160 },
          data: { inputs: [{ name: 'text', label: w.text, type: 'paragraph', required: true }] },
        },
        ...branches,
        {
          id: 'join',
          type: 'template',
          title: w.join,
          position: { x: 640, y: 160 },
          data: {
            variables: IDS.map((id, at) => ({ name: `text_${at + 1}`, selector: [id, 'text'] })),
            template: w.targets.map((target, at) => `### ${target}\n{{ text_${at + 1} }}`).join('\n\n'),
          },
        },
        {
          id: 'end',
          type: 'end',
          title: END[language],
          position: { x: 960, y: 160 },
          data: {
            outputs: [
              { name: 'all', selector: ['join', 'output'] },
              ...IDS.map((id, at) => ({ name: `translation_${at + 1}`, selector: [id, 'text'] })),
            ],
          },
        },
      ],
      edges: [
        ...IDS.map((id) => ({ id: `start-${id}`, source: 'start', target: id })),
        ...IDS.map((id) => ({ id: `${id}-join`, source: id, target: 'join' })),
        { id: 'join-end', source: 'join', target: 'end' },
      ],
    };
  },
};
