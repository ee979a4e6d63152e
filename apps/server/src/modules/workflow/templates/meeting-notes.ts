import type { Language } from '@athena/contract';
import type { BuiltinTemplate } from './template-types.ts';
import { END, START } from './words.ts';

const en = {
  notes: 'Meeting notes or transcript',
  summarize: 'Summarise',
  system:
    'You summarise meetings for people who missed them. Write at most six bullet points: what was discussed and where it ended. Keep names, numbers and dates exact.',
  extract: 'Find decisions and action items',
  instruction:
    'Read the meeting notes. List the decisions taken, and every task someone agreed to do. Leave owner or due date empty when the notes do not say them.',
  decisions: 'Each decision taken in the meeting, one sentence each',
  actions: 'Each task agreed in the meeting, as an object {"task", "owner", "due"}',
  report: 'Write the minutes',
  summaryHeading: 'Summary',
  decisionsHeading: 'Decisions',
  actionsHeading: 'Action items',
  none: 'None',
};
const words: Record<Language, typeof en> = {
  'zh-CN': {
    notes: '会议记录或逐字稿',
    summarize: '总结会议',
    system: '你为没参加会议的人总结会议。最多写六条要点：讨论了什么、结论是什么。人名、数字和日期保持准确。',
    extract: '提取决定与待办',
    instruction:
      '阅读会议记录，列出会上做出的决定，以及每一项有人答应去做的任务。记录中没有提到负责人或截止日期时留空。',
    decisions: '会上做出的每一项决定，每项一句话',
    actions: '会上约定的每一项任务，格式为对象 {"task", "owner", "due"}',
    report: '生成会议纪要',
    summaryHeading: '摘要',
    decisionsHeading: '决定',
    actionsHeading: '待办事项',
    none: '无',
  },
  'zh-TW': {
    notes: '會議記錄或逐字稿',
    summarize: '摘要會議',
    system: '你為沒參加會議的人摘要會議。最多寫六點重點：討論了什麼、結論是什麼。人名、數字和日期保持正確。',
    extract: '擷取決議與待辦',
    instruction:
      '閱讀會議記錄，列出會中做出的決議，以及每一項有人答應去做的工作。記錄中沒有提到負責人或截止日期時留空。',
    decisions: '會中做出的每一項決議，每項一句話',
    actions: '會中約定的每一項工作，格式為物件 {"task", "owner", "due"}',
    report: '產生會議紀錄',
    summaryHeading: '摘要',
    decisionsHeading: '決議',
    actionsHeading: '待辦事項',
    none: '無',
  },
  en,
};

// Minutes in Markdown: the summary, then the extractor's lists; a list the model left out reads "None".
const minutes = (w: typeof en) =>
  [
    `## ${w.summaryHeading}`,
    '{{ summary }}',
    '',
    `## ${w.decisionsHeading}`,
    `{% for decision in decisions %}- {{ decision }}\n{% else %}- ${w.none}\n{% endfor %}`,
    `## ${w.actionsHeading}`,
    '{% for item in action_items %}- [ ] {{ item.task }}{% if item.owner %} — {{ item.owner }}{% endif %}' +
      `{% if item.due %} ({{ item.due }}){% endif %}\n{% else %}- ${w.none}\n{% endfor %}`,
  ].join('\n');

export const meetingNotes: BuiltinTemplate = {
  id: 'builtin-meeting-notes',
  category: 'automation',
  name: { 'zh-CN': '会议纪要与待办', 'zh-TW': '會議紀錄與待辦', en: 'Meeting minutes and action items' },
  description: {
    'zh-CN':
      '贴上会议记录：一个分支写摘要，另一个分支同时提取决定和待办（负责人、截止日期），最后合成一份 Markdown 会议纪要。',
    'zh-TW':
      '貼上會議記錄：一個分支寫摘要，另一個分支同時擷取決議和待辦（負責人、截止日期），最後合成一份 Markdown 會議紀錄。',
    en: 'Paste meeting notes: one branch writes a summary while another extracts decisions and action items (owner, due date) at the same time; a template joins them into Markdown minutes.',
  },
  graph: (language) => {
    const w = words[language];
    return {
      nodes: [
        {
          id: 'start',
          type: 'start',
          title: START[language],
          position: { x: 0, y: 120 },
          data: { inputs: [{ name: 'notes', label: w.notes, type: 'paragraph', required: true }] },
        },
        {
          id: 'summarize',
          type: 'llm',
          title: w.summarize,
          position: { x: 320, y: 0 },
          data: { system_prompt: w.system, user_prompt: '{{#start.notes#}}', temperature: 0.3 },
        },
        {
          id: 'extract',
          type: 'extractor',
          title: w.extract,
          position: { x: 320, y: 240 },
          data: {
            query: ['start', 'notes'],
            instruction: w.instruction,
            temperature: 0,
            parameters: [
              { name: 'decisions', type: 'array[string]', description: w.decisions, required: false },
              { name: 'action_items', type: 'array[object]', description: w.actions, required: false },
            ],
          },
        },
        {
          id: 'minutes',
          type: 'template',
          title: w.report,
          position: { x: 640, y: 120 },
          data: {
            variables: [
              { name: 'summary', selector: ['summarize', 'text'] },
              { name: 'decisions', selector: ['extract', 'decisions'] },
              { name: 'action_items', selector: ['extract', 'action_items'] },
            ],
            template: minutes(w),
          },
        },
        {
          id: 'end',
          type: 'end',
          title: END[language],
          position: { x: 960, y: 120 },
          data: {
            outputs: [
              { name: 'minutes', selector: ['minutes', 'output'] },
              { name: 'action_items', selector: ['extract', 'action_items'] },
            ],
          },
        },
      ],
      edges: [
        { id: 'start-summarize', source: 'start', target: 'summarize' },
        { id: 'start-extract', source: 'start', target: 'extract' },
        { id: 'summarize-minutes', source: 'summarize', target: 'minutes' },
        { id: 'extract-minutes', source: 'extract', target: 'minutes' },
        { id: 'minutes-end', source: 'minutes', target: 'end' },
      ],
    };
  },
};
