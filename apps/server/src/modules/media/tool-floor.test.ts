import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INPUT, runTool } from './media-tools.ts';
import { launchFor } from './tool-floor.ts';

/**
 * What a decoder bug in ffmpeg or ffprobe would find: a stand-in tool (a shell script) runs the way
 * the real ones do and reports what it can reach. Each capability must be out of reach.
 */
describe('the floor beneath ffmpeg and ffprobe', () => {
  let dir: string;
  let tool: string;
  let input: string;
  let secret: string;
  let listener: net.Server;
  let port: number;
  let connections = 0;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'athena-tool-floor-'));
    await fs.chmod(dir, 0o755);
    // Laid out as the media store is: folders only the server's user enters, files 0640.
    const store = path.join(dir, 'store');
    await fs.mkdir(store, { mode: 0o750 });
    input = path.join(store, 'upload');
    secret = path.join(store, 'another-teams-file');
    await fs.writeFile(input, 'MEDIA', { mode: 0o640 });
    await fs.writeFile(secret, 'SECRET', { mode: 0o640 });
    listener = net.createServer((socket) => {
      connections += 1;
      socket.destroy();
    });
    await new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve));
    port = (listener.address() as net.AddressInfo).port;
    tool = path.join(dir, 'fake-ffprobe');
    await fs.writeFile(
      tool,
      `#!/bin/bash
[ "$1" = "-version" ] && exit 0
input="\${@: -1}"; input="\${input#file:}"
read_input=$(cat "$input" 2>/dev/null || echo denied)
read_other=$(cat "${secret}" 2>/dev/null || echo denied)
environ=$( [ "$(head -c 1 /proc/$PPID/environ 2>/dev/null | wc -c)" = 1 ] && echo readable || echo denied)
network=$( (exec 3<>/dev/tcp/127.0.0.1/${port}) 2>/dev/null && echo open || echo refused)
printf '{"uid":%s,"env":"%s","input":"%s","other":"%s","environ":"%s","network":"%s"}' \\
  "$(id -u)" "$(printenv ATHENA_MASTER_KEY || printenv HOME || echo none)" "$read_input" "$read_other" "$environ" "$network"
`,
      { mode: 0o755 },
    );
  });
  afterAll(async () => {
    listener.close();
    await fs.rm(dir, { recursive: true, force: true });
  });

  const report = async () => {
    const out = await runTool(tool, ['-v', 'error', INPUT], input, { timeoutMs: 10_000, maxOutputBytes: 10_000 });
    return JSON.parse(out.toString()) as Record<string, string | number>;
  };

  it('hands the tool its input and nothing of the server’s environment', async () => {
    const seen = await report();
    expect(seen.input).toBe('MEDIA');
    expect(seen.env).toBe('none');
  });

  it.runIf(process.getuid?.() === 0)(
    'started as root: runs as nobody, reads no other file, no /proc/<server>/environ and reaches no address',
    async () => {
      expect(launchFor(tool).missing).toEqual([]);
      const seen = await report();
      expect(seen).toMatchObject({ uid: 65534, other: 'denied', environ: 'denied', network: 'refused' });
      expect(connections).toBe(0);
    },
  );
});
