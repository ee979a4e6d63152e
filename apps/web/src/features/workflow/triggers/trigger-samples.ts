import { WORKFLOW_API_RUN_PATH, WORKFLOW_SIGNATURE_HEADER } from '@athena/contract';

/** Example inputs: each start input by name with a placeholder of its type. */
export function exampleInputs(names: { name: string; type: string }[]): Record<string, unknown> {
  return Object.fromEntries(
    names.map(({ name, type }) => [name, type === 'number' ? 1 : type === 'json' ? {} : `<${name}>`]),
  );
}

/** curl calls of POST /v1/workflows/run, blocking and streaming, against this site. */
export function curlSamples(origin: string, inputs: Record<string, unknown>) {
  const body = (mode: string) => JSON.stringify({ inputs, response_mode: mode, user: 'user-123' });
  const call = (mode: string, extra = '') =>
    `curl${extra} -X POST ${origin}${WORKFLOW_API_RUN_PATH} \\
  -H "Authorization: Bearer $ATHENA_WORKFLOW_KEY" \\
  -H "Content-Type: application/json" \\
  -d '${body(mode)}'`;
  return { blocking: call('blocking'), streaming: call('streaming', ' -N') };
}

/** How a sender signs a webhook call, in Node and in Python (the same bytes must be sent). */
export function signingSamples(url: string, inputs: Record<string, unknown>) {
  const payload = JSON.stringify(inputs);
  const header = WORKFLOW_SIGNATURE_HEADER.replace(
    /(^|-)([a-z])/g,
    (_m, dash: string, c: string) => dash + c.toUpperCase(),
  );
  return {
    node: `import { createHmac } from 'node:crypto';

const secret = process.env.ATHENA_WEBHOOK_SECRET;
const body = JSON.stringify(${payload});
const t = Math.floor(Date.now() / 1000);
const v1 = createHmac('sha256', secret).update(\`\${t}.\${body}\`).digest('hex');

const res = await fetch('${url}', {
  method: 'POST',
  headers: { 'Content-Type': 'application/json', '${header}': \`t=\${t},v1=\${v1}\` },
  body,
});
console.log(res.status, await res.json()); // 202 { run_id }`,
    python: `import hashlib, hmac, json, os, time, urllib.request

secret = os.environ["ATHENA_WEBHOOK_SECRET"].encode()
body = json.dumps(${payload}).encode()
t = str(int(time.time()))
v1 = hmac.new(secret, t.encode() + b"." + body, hashlib.sha256).hexdigest()

req = urllib.request.Request("${url}", data=body, method="POST", headers={
    "Content-Type": "application/json",
    "${header}": f"t={t},v1={v1}",
})
print(urllib.request.urlopen(req).read())  # 202 {"run_id": ...}`,
  };
}
