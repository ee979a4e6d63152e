import type { Language } from '@athena/contract';
import type { BuiltinTemplate } from './template-types.ts';
import { END, START } from './words.ts';

// The reviewer answers with this word when the draft is good enough; the loop and the check in its
// body look for it. It stays English in every language because a fixed marker is what the
// conditions compare, and models keep a quoted word exactly.
const APPROVED = 'APPROVED';

const en = {
  topic: 'What to write',
  requirements: 'Requirements (length, audience, must-haves)',
  draft: 'First draft',
  draftSystem:
    'You are a careful writer. Write the text asked for, meeting every requirement. Reply with the text only.',
  draftUser: 'Write: {{#start.topic#}}\n\nRequirements:\n{{#start.requirements#}}',
  loop: 'Review and revise',
  review: 'Review',
  reviewSystem: `You are a strict editor. Check the draft against every requirement. If it meets all of them, reply with the single word ${APPROVED}. Otherwise list, briefly, each thing to fix, and do not write the word ${APPROVED}.`,
  reviewUser: 'Requirements:\n{{#start.requirements#}}\n\nDraft:\n{{#refine.draft#}}',
  check: 'Approved?',
  revise: 'Revise',
  reviseSystem:
    'You revise drafts. Apply every point of the review and change nothing else. Reply with the revised text only.',
  reviseUser: 'Draft:\n{{#refine.draft#}}\n\nReview:\n{{#review.text#}}',
  keep: 'Keep the revision',
};
const words: Record<Language, typeof en> = {
  'zh-CN': {
    topic: '要写什么',
    requirements: '要求（篇幅、读者、必须包含的内容）',
    draft: '初稿',
    draftSystem: '你是一位严谨的写作者。按要求写出文本，满足每一项要求。只回复正文。',
    draftUser: '请写：{{#start.topic#}}\n\n要求：\n{{#start.requirements#}}',
    loop: '审阅并修改',
    review: '审阅',
    reviewSystem: `你是一位严格的编辑。逐项对照要求检查草稿。如果全部满足，只回复一个词 ${APPROVED}。否则简要列出每一处需要修改的地方，并且不要写 ${APPROVED} 这个词。`,
    reviewUser: '要求：\n{{#start.requirements#}}\n\n草稿：\n{{#refine.draft#}}',
    check: '是否通过',
    revise: '修改',
    reviseSystem: '你负责修改草稿。落实审阅意见中的每一点，其他内容不要改动。只回复修改后的正文。',
    reviseUser: '草稿：\n{{#refine.draft#}}\n\n审阅意见：\n{{#review.text#}}',
    keep: '保存修改稿',
  },
  'zh-TW': {
    topic: '要寫什麼',
    requirements: '要求（篇幅、讀者、必須包含的內容）',
    draft: '初稿',
    draftSystem: '你是一位嚴謹的寫作者。依要求寫出文字，符合每一項要求。只回覆正文。',
    draftUser: '請寫：{{#start.topic#}}\n\n要求：\n{{#start.requirements#}}',
    loop: '審閱並修改',
    review: '審閱',
    reviewSystem: `你是一位嚴格的編輯。逐項對照要求檢查草稿。如果全部符合，只回覆一個詞 ${APPROVED}。否則簡要列出每一處需要修改的地方，並且不要寫 ${APPROVED} 這個詞。`,
    reviewUser: '要求：\n{{#start.requirements#}}\n\n草稿：\n{{#refine.draft#}}',
    check: '是否通過',
    revise: '修改',
    reviseSystem: '你負責修改草稿。落實審閱意見中的每一點，其他內容不要更動。只回覆修改後的正文。',
    reviseUser: '草稿：\n{{#refine.draft#}}\n\n審閱意見：\n{{#review.text#}}',
    keep: '儲存修改稿',
  },
  en,
};

const approved = { selector: ['review', 'text'], operator: 'contains' as const, value: APPROVED };

export const refineDraft: BuiltinTemplate = {
  id: 'builtin-refine-draft',
  category: 'content',
  name: { 'zh-CN': '反复审阅直到达标', 'zh-TW': '反覆審閱直到達標', en: 'Revise a draft until it passes review' },
  description: {
    'zh-CN': '先写初稿，再在循环中由“编辑”对照你的要求审阅、由“作者”修改，审阅通过或满 3 轮即停止。',
    'zh-TW': '先寫初稿，再在迴圈中由「編輯」對照你的要求審閱、由「作者」修改，審閱通過或滿 3 輪即停止。',
    en: 'Writes a first draft, then loops: an editor reviews it against your requirements and a writer revises it, until the review approves or after 3 rounds.',
  },
  graph: (language) => {
    const w = words[language];
    return {
      nodes: [
        {
          id: 'start',
          type: 'start',
          title: START[language],
          position: { x: 0, y: 0 },
          data: {
            inputs: [
              { name: 'topic', label: w.topic, type: 'paragraph', required: true },
              { name: 'requirements', label: w.requirements, type: 'paragraph', required: true },
            ],
          },
        },
        {
          id: 'draft',
          type: 'llm',
          title: w.draft,
          position: { x: 320, y: 0 },
          data: { system_prompt: w.draftSystem, user_prompt: w.draftUser },
        },
        {
          id: 'refine',
          type: 'loop',
          title: w.loop,
          position: { x: 640, y: 0 },
          data: {
            variables: [{ name: 'draft', type: 'string', initial: '{{#draft.text#}}' }],
            break_when: { logical_operator: 'and', conditions: [approved] },
            max_count: 3,
          },
        },
        {
          id: 'review',
          type: 'llm',
          title: w.review,
          parent_id: 'refine',
          position: { x: 680, y: 200 },
          data: { system_prompt: w.reviewSystem, user_prompt: w.reviewUser, temperature: 0 },
        },
        {
          id: 'check',
          type: 'if_else',
          title: w.check,
          parent_id: 'refine',
          position: { x: 1000, y: 200 },
          data: { cases: [{ id: 'approved', logical_operator: 'and', conditions: [approved] }] },
        },
        {
          id: 'revise',
          type: 'llm',
          title: w.revise,
          parent_id: 'refine',
          position: { x: 1320, y: 200 },
          data: { system_prompt: w.reviseSystem, user_prompt: w.reviseUser, temperature: 0.5 },
        },
        {
          id: 'keep',
          type: 'assigner',
          title: w.keep,
          parent_id: 'refine',
          position: { x: 1640, y: 200 },
          data: { items: [{ target: ['refine', 'draft'], operation: 'set', source: ['revise', 'text'] }] },
        },
        {
          id: 'end',
          type: 'end',
          title: END[language],
          position: { x: 1960, y: 0 },
          data: { outputs: [{ name: 'text', selector: ['refine', 'draft'] }] },
        },
      ],
      edges: [
        { id: 'start-draft', source: 'start', target: 'draft' },
        { id: 'draft-refine', source: 'draft', target: 'refine' },
        { id: 'refine-review', source: 'refine', source_handle: 'body', target: 'review' },
        { id: 'review-check', source: 'review', target: 'check' },
        // Nothing follows the approved case: an approved draft needs no revision this round.
        { id: 'check-revise', source: 'check', source_handle: 'else', target: 'revise' },
        { id: 'revise-keep', source: 'revise', target: 'keep' },
        { id: 'refine-end', source: 'refine', target: 'end' },
      ],
    };
  },
};
