import type { Language } from '@athena/contract';
import type { BuiltinTemplate } from './template-types.ts';
import { END, START } from './words.ts';

const en = {
  repo: 'GitHub repository (owner/name)',
  fetch: 'Call the GitHub API',
  reshape: 'Keep the useful fields',
  write: 'Write the brief',
  system:
    'You introduce open-source projects to engineers. From the facts given, write three sentences: what it is, how active and popular it is (stars, last push, open issues), and its licence and language. ' +
    'If "found" is false, say in one sentence that the repository could not be read, and why. Write in English.',
};
const words: Record<Language, typeof en> = {
  'zh-CN': {
    repo: 'GitHub 仓库（owner/name）',
    fetch: '调用 GitHub API',
    reshape: '整理有用字段',
    write: '撰写简介',
    system:
      '你向工程师介绍开源项目。根据给出的事实写三句话：它是什么、活跃度和受欢迎程度（星数、最近推送、未关闭的 issue），以及许可证和主要语言。' +
      '如果 "found" 为 false，就用一句话说明无法读取该仓库及原因。使用简体中文。',
  },
  'zh-TW': {
    repo: 'GitHub 儲存庫（owner/name）',
    fetch: '呼叫 GitHub API',
    reshape: '整理有用欄位',
    write: '撰寫簡介',
    system:
      '你向工程師介紹開源專案。根據提供的事實寫三句話：它是什麼、活躍度和受歡迎程度（星數、最近推送、未關閉的 issue），以及授權條款和主要語言。' +
      '如果 "found" 為 false，就用一句話說明無法讀取該儲存庫及原因。使用繁體中文。',
  },
  en,
};

// GitHub answers JSON with many fields; the model only needs a few, and a refusal (404, rate
// limit) becomes facts the model can explain instead of a failed run.
const RESHAPE = `function main({ status, body }) {
  let data = null;
  try {
    data = JSON.parse(body);
  } catch {
    data = null;
  }
  if (status !== 200 || !data || typeof data !== 'object') {
    const reason = data && data.message ? data.message : 'not JSON';
    return { found: false, facts: { found: false, error: 'GitHub answered ' + status + ': ' + reason } };
  }
  return {
    found: true,
    facts: {
      found: true,
      name: data.full_name,
      description: data.description ?? '',
      stars: data.stargazers_count,
      forks: data.forks_count,
      open_issues: data.open_issues_count,
      language: data.language ?? '',
      license: data.license?.spdx_id ?? '',
      topics: data.topics ?? [],
      homepage: data.homepage ?? '',
      last_push: data.pushed_at,
      archived: data.archived === true,
    },
  };
}`;

export const repoBrief: BuiltinTemplate = {
  id: 'builtin-repo-brief',
  category: 'automation',
  name: { 'zh-CN': 'GitHub 仓库简介', 'zh-TW': 'GitHub 儲存庫簡介', en: 'Brief on a GitHub repository' },
  description: {
    'zh-CN':
      'HTTP 节点调用 GitHub 公开 API（失败自动重试），JavaScript 代码节点把响应整理成几个关键字段，大模型据此写出三句话简介。可照此改成调用你自己的接口。',
    'zh-TW':
      'HTTP 節點呼叫 GitHub 公開 API（失敗自動重試），JavaScript 程式碼節點把回應整理成幾個關鍵欄位，大模型據此寫出三句話簡介。可照此改成呼叫你自己的 API。',
    en: 'An HTTP node calls GitHub’s public API (retried on failure), a JavaScript code node reshapes the response into a few key fields, and a model writes a three-sentence brief. Adapt it to call your own API.',
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
          data: { inputs: [{ name: 'repo', label: w.repo, type: 'text', required: true, max_length: 200 }] },
        },
        {
          id: 'fetch',
          type: 'http',
          title: w.fetch,
          position: { x: 320, y: 0 },
          data: {
            method: 'GET',
            url: 'https://api.github.com/repos/{{#start.repo#}}',
            headers: [
              { key: 'Accept', value: 'application/vnd.github+json' },
              { key: 'User-Agent', value: 'Athena-Workflow' },
            ],
            timeout_ms: 15_000,
          },
          errors: { retry: { max: 2, interval_ms: 1_000 } },
        },
        {
          id: 'reshape',
          type: 'code',
          title: w.reshape,
          position: { x: 640, y: 0 },
          data: {
            language: 'javascript',
            variables: [
              { name: 'status', selector: ['fetch', 'status_code'] },
              { name: 'body', selector: ['fetch', 'body'] },
            ],
            code: RESHAPE,
            outputs: [
              { name: 'found', type: 'boolean' },
              { name: 'facts', type: 'object' },
            ],
          },
        },
        {
          id: 'write',
          type: 'llm',
          title: w.write,
          position: { x: 960, y: 0 },
          data: { system_prompt: w.system, user_prompt: '{{#reshape.facts#}}', temperature: 0.3 },
        },
        {
          id: 'end',
          type: 'end',
          title: END[language],
          position: { x: 1280, y: 0 },
          data: {
            outputs: [
              { name: 'brief', selector: ['write', 'text'] },
              { name: 'facts', selector: ['reshape', 'facts'] },
            ],
          },
        },
      ],
      edges: [
        { id: 'start-fetch', source: 'start', target: 'fetch' },
        { id: 'fetch-reshape', source: 'fetch', target: 'reshape' },
        { id: 'reshape-write', source: 'reshape', target: 'write' },
        { id: 'write-end', source: 'write', target: 'end' },
      ],
    };
  },
};
