import { Card, Flex, Segmented, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { usePublicAddress } from '../../shared/hooks/use-public-address.ts';
import { Markdown } from './chat/markdown.tsx';

type Language = 'python' | 'node' | 'curl';

/** Samples for the official openai clients (and curl), with this server and this agent filled in. */
export function codeSamples(baseUrl: string, model: string): Record<Language, { lang: string; code: string }> {
  return {
    python: {
      lang: 'python',
      code: `# pip install openai
from openai import OpenAI

client = OpenAI(base_url="${baseUrl}", api_key="ath-…")  # your key

stream = client.chat.completions.create(
    model="${model}",
    messages=[{"role": "user", "content": "Hello!"}],
    stream=True,
)
for chunk in stream:
    print(chunk.choices[0].delta.content or "", end="", flush=True)`,
    },
    node: {
      lang: 'javascript',
      code: `// npm install openai
import OpenAI from 'openai';

const client = new OpenAI({ baseURL: '${baseUrl}', apiKey: process.env.ATHENA_API_KEY });

const completion = await client.chat.completions.create({
  model: '${model}',
  messages: [{ role: 'user', content: 'Hello!' }],
});
console.log(completion.choices[0].message.content);`,
    },
    curl: {
      lang: 'bash',
      code: `curl ${baseUrl}/chat/completions \\
  -H "Authorization: Bearer $ATHENA_API_KEY" \\
  -H "Content-Type: application/json" \\
  -d '{"model": "${model}", "messages": [{"role": "user", "content": "Hello!"}]}'`,
    },
  };
}

/** How to call the agent with the OpenAI protocol: base URL this site + /v1, model = public id. */
export function CodeSample({ publicId }: { publicId: string }) {
  const { t } = useTranslation();
  const [language, setLanguage] = useState<Language>('python');
  const baseUrl = `${usePublicAddress().origin}/v1`;
  const sample = codeSamples(baseUrl, publicId)[language];
  return (
    <Card size="small" title={t('agents.code.title')} data-testid="code-sample-card">
      <Flex vertical gap={10}>
        <Typography.Paragraph type="secondary" style={{ margin: 0 }}>
          {t('agents.code.explain')}
        </Typography.Paragraph>
        <Flex vertical gap={4} style={{ fontSize: 13 }}>
          <span>
            {t('agents.code.baseUrl')}{' '}
            <Typography.Text code copyable data-testid="code-base-url">
              {baseUrl}
            </Typography.Text>
          </span>
          <span>
            {t('agents.code.model')}{' '}
            <Typography.Text code copyable data-testid="code-model">
              {publicId}
            </Typography.Text>
          </span>
        </Flex>
        <Segmented<Language>
          value={language}
          onChange={setLanguage}
          options={[
            { value: 'python', label: 'Python' },
            { value: 'node', label: 'Node.js' },
            { value: 'curl', label: 'curl' },
          ]}
          data-testid="code-sample-language"
        />
        <div data-testid="code-sample">
          <Markdown text={`\`\`\`${sample.lang}\n${sample.code}\n\`\`\``} />
        </div>
      </Flex>
    </Card>
  );
}
