import { execFileSync } from 'node:child_process';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { othersCanRead } from '../../platform/process-floor.ts';
import { fixtureFfmpeg } from './media-test-helpers.ts';
import { createMediaTools, findTools, INPUT, runTool, ToolFailed, webAssembly } from './media-tools.ts';
import { launchFor, type ToolCommand } from './tool-floor.ts';

/**
 * What a decoder bug in ffmpeg or ffprobe would find: a stand-in tool (a shell script) runs the way
 * the real ones do and reports what it can reach. Each capability must be out of reach.
 */
describe('the floor beneath a native ffmpeg and ffprobe', () => {
  let dir: string;
  let tool: ToolCommand;
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
    const script = path.join(dir, 'fake-ffprobe');
    tool = { command: script, args: [], handedInput: 'file:/proc/self/fd/3', alwaysHand: false };
    await fs.writeFile(
      script,
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
      expect((await launchFor(tool)).missing).toEqual([]);
      const seen = await report();
      expect(seen).toMatchObject({ uid: 65534, other: 'denied', environ: 'denied', network: 'refused' });
      expect(connections).toBe(0);
    },
  );
});

/**
 * The default tools: ffmpeg compiled to WebAssembly, run by node under the permission model, on the
 * same floor. They read the handed input and nothing else; and should a decoder bug ever reach the
 * runner's JavaScript, a stand-in core loaded in its place reports what that code could touch.
 */
describe('ffmpeg and ffprobe in WebAssembly', () => {
  let dir: string;
  let video: string;
  let secret: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'athena-wasm-tools-'));
    await fs.chmod(dir, 0o755);
    video = path.join(dir, 'clip.mp4');
    secret = path.join(dir, 'another-teams-file');
    await fs.writeFile(secret, 'SECRET', { mode: 0o644 });
    execFileSync(fixtureFfmpeg(), [
      ...['-v', 'error', '-f', 'lavfi', '-i', 'testsrc=duration=2:size=320x240:rate=10'],
      ...['-pix_fmt', 'yuv420p', '-y', video],
    ]);
  }, 60_000);
  afterAll(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('probes a video and draws a frame from the input handed to them', { timeout: 60_000 }, async () => {
    const tools = createMediaTools(findTools());
    expect(await tools.probe(video)).toMatchObject({ width: 320, height: 240, hasVideo: true, hasAudio: false });
    expect((await tools.probe(video)).durationMs).toBeGreaterThanOrEqual(1900);
    const png = await tools.frameAt(video, 1, 160);
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  });

  it('cannot open a file of the host by its name', { timeout: 60_000 }, async () => {
    const { ffprobe } = findTools();
    const args = ['-v', 'error', '-print_format', 'json', '-show_format'];
    await expect(
      runTool(ffprobe, [...args, secret], video, { timeoutMs: 30_000, maxOutputBytes: 10_000 }),
    ).rejects.toThrow(ToolFailed);
    await expect(
      runTool(ffprobe, [...args, '/etc/hostname'], video, { timeoutMs: 30_000, maxOutputBytes: 10_000 }),
    ).rejects.toThrow(ToolFailed);
  });

  it('finds no file, environment, program or socket from the runner’s JavaScript', { timeout: 60_000 }, async () => {
    const standIn = path.join(dir, 'stand-in-core.cjs');
    await fs.writeFile(
      standIn,
      `const fs = require('node:fs');
const attempt = (f) => { try { f(); return 'open'; } catch { return 'denied'; } };
const report = {
  uid: process.getuid(),
  env: Object.keys(process.env),
  file: attempt(() => fs.readFileSync(${JSON.stringify(secret)})),
  environ: attempt(() => fs.readFileSync('/proc/' + process.ppid + '/environ')),
  program: attempt(() => require('node:child_process').spawnSync('id')),
  write: attempt(() => fs.writeFileSync(${JSON.stringify(path.join(dir, 'written'))}, 'x')),
};
const done = (network) => { process.stdout.write(JSON.stringify({ ...report, network })); process.exit(0); };
try {
  const socket = require('node:net').connect(9, '127.0.0.1');
  socket.on('connect', () => done('open'));
  socket.on('error', (e) => done(e.code === 'ECONNREFUSED' ? 'reached' : 'unreachable'));
} catch {
  done('denied'); // Node 25 and later: the permission model refuses sockets too
}
`,
      { mode: 0o644 },
    );
    const tool = webAssembly('ffprobe', { js: standIn, wasm: standIn });
    const out = await runTool(tool, ['-v', 'error', INPUT], video, { timeoutMs: 30_000, maxOutputBytes: 10_000 });
    const seen = JSON.parse(out.toString()) as Record<string, unknown>;
    expect(seen).toMatchObject({ env: [], file: 'denied', environ: 'denied', program: 'denied', write: 'denied' });
    // As root the tool runs as nobody in a network namespace of its own, where nothing answers.
    if (process.getuid?.() === 0 && othersCanRead(standIn) && othersCanRead(process.execPath)) {
      expect((await launchFor(tool)).missing).toEqual([]);
      expect(seen.uid).toBe(65534);
      expect(['unreachable', 'denied']).toContain(seen.network);
    }
  });
});
