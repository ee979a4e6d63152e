import { spawn } from 'node:child_process';
import type { FileHandle } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { permissionFlag } from '../../platform/process-floor.ts';
import { handOver, launchFor, type ToolCommand, type ToolLaunch } from './tool-floor.ts';

/**
 * ffprobe and ffmpeg, run as child processes: they read hostile files, so each runs with one
 * thread, a time limit, a cap on what it may print, only the `file` protocol (a crafted playlist
 * cannot make it fetch a URL) and only the demuxers of the media we accept — and beneath that on the
 * floor of tool-floor.ts: no environment, and as root no user of the server's and no network.
 *
 * The tools: the configured native binaries (FFMPEG_PATH / FFPROBE_PATH, checked at start by
 * config.ts), else ffmpeg compiled to WebAssembly (@ffmpeg/core, its .wasm inside the package), run
 * by ffmpeg-wasm.runner.mjs under Node's permission model: it may read the runner and the core's two
 * files, and the one input handed to it open, nothing else.
 */
export class ToolTimeout extends Error {}
export class ToolFailed extends Error {}

/** The native binaries an operator configured, when they did. */
export interface ConfiguredTools {
  ffmpeg?: string;
  ffprobe?: string;
}

export interface ToolSet {
  ffmpeg: ToolCommand;
  ffprobe: ToolCommand;
}

const require = createRequire(import.meta.url);

const native = (binary: string): ToolCommand => ({
  command: binary,
  args: [],
  handedInput: 'file:/proc/self/fd/3',
  alwaysHand: false,
});

/**
 * The WebAssembly build, run by node: the runner sits beside this module, from source and from the
 * build. `core` names the build's two files (a test puts a stand-in there).
 */
export function webAssembly(
  tool: keyof ToolSet,
  core = { js: require.resolve('@ffmpeg/core'), wasm: require.resolve('@ffmpeg/core/wasm') },
): ToolCommand {
  const runner = fileURLToPath(new URL('./ffmpeg-wasm.runner.mjs', import.meta.url));
  const { js: coreJs, wasm: coreWasm } = core;
  return {
    command: process.execPath,
    args: [
      permissionFlag(),
      // Each once: Node 20 stops on an assertion when the permission model is given a path twice.
      ...[...new Set([runner, coreJs, coreWasm])].map((file) => `--allow-fs-read=${file}`),
      // Node 20 warns that the permission model is experimental.
      '--no-warnings',
      runner,
      coreJs,
      coreWasm,
      tool,
    ],
    handedInput: '/in/input',
    alwaysHand: true,
  };
}

/** The tools to run: the configured native binaries where given, else the WebAssembly build. */
export const findTools = (configured: ConfiguredTools = {}): ToolSet => ({
  ffmpeg: configured.ffmpeg ? native(configured.ffmpeg) : webAssembly('ffmpeg'),
  ffprobe: configured.ffprobe ? native(configured.ffprobe) : webAssembly('ffprobe'),
});

/** Demuxers of the video and audio kinds file-type recognises; nothing else is opened. */
const FORMATS =
  'mov,mp4,m4a,3gp,3g2,mj2,matroska,webm,avi,flv,mpegts,mpeg,asf,mp3,wav,ogg,flac,aac,amr,aiff,caf,wv,ape,mpc';
const INPUT_SAFETY = ['-protocol_whitelist', 'file', '-format_whitelist', FORMATS];

export interface RunLimits {
  timeoutMs: number;
  maxOutputBytes: number;
}

/** Stands for the input file in a tool's arguments; run() puts the path the tool can open there. */
export const INPUT: unique symbol = Symbol('input');
type ToolArgs = (string | typeof INPUT)[];

/**
 * Runs a tool on `file` on the floor (tool-floor.ts); resolves with its stdout, or rejects with
 * ToolTimeout or ToolFailed.
 */
export async function runTool(
  tool: ToolCommand,
  args: ToolArgs,
  file: string,
  limits: RunLimits,
  onMissing?: (launch: ToolLaunch) => void,
): Promise<Buffer> {
  const launch = await launchFor(tool, onMissing);
  const handed: FileHandle | null = launch.handsInput ? await handOver(file) : null;
  const input = handed ? tool.handedInput : `file:${file}`;
  const [command = tool.command, ...prefix] = launch.prefix;
  try {
    return await runOnce(
      command,
      [...prefix, ...args.map((arg) => (arg === INPUT ? input : arg))],
      handed?.fd ?? null,
      tool.alwaysHand ? (tool.args.at(-1) ?? 'tool') : path.basename(tool.command),
      limits,
    );
  } finally {
    await handed?.close();
  }
}

function runOnce(command: string, args: string[], inputFd: number | null, tool: string, limits: RunLimits) {
  return new Promise<Buffer>((resolve, reject) => {
    const child = spawn(command, args, {
      env: {},
      // Its own folder, never the server's working directory (where ./data may be).
      cwd: '/',
      stdio: inputFd === null ? ['ignore', 'pipe', 'pipe'] : ['ignore', 'pipe', 'pipe', inputFd],
    });
    const chunks: Buffer[] = [];
    let size = 0;
    let stderr = '';
    let settled = false;
    const finish = (error: Error | null) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if (error) {
        child.kill('SIGKILL');
        reject(error);
      } else resolve(Buffer.concat(chunks));
    };
    const timer = setTimeout(() => finish(new ToolTimeout(`${tool} timed out`)), limits.timeoutMs);
    child.stdout?.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limits.maxOutputBytes) finish(new ToolFailed(`${tool} printed too much`));
      else chunks.push(chunk);
    });
    child.stderr?.on('data', (chunk: Buffer) => {
      if (stderr.length < 2000) stderr += chunk.toString();
    });
    child.on('error', (error) => finish(new ToolFailed(`${tool}: ${error.message}`)));
    child.on('close', (code) =>
      finish(code === 0 ? null : new ToolFailed(`${tool} exited ${code}: ${stderr.trim().slice(0, 500)}`)),
    );
  });
}

export interface Probe {
  durationMs: number | null;
  width: number | null;
  height: number | null;
  hasVideo: boolean;
  hasAudio: boolean;
}

interface ProbeJson {
  format?: { duration?: string };
  streams?: {
    codec_type?: string;
    width?: number;
    height?: number;
    duration?: string;
    disposition?: { attached_pic?: number };
    tags?: { rotate?: string };
    side_data_list?: { rotation?: number }[];
  }[];
}

interface Tools extends ToolSet {
  /** Hears of a layer of the floor this machine cannot give (logged once per binary). */
  onMissing?: (launch: ToolLaunch) => void;
}

/** The three things previews ask of ffprobe and ffmpeg, run from `paths`. */
export function createMediaTools(set: ToolSet, onMissing?: (launch: ToolLaunch) => void) {
  const tools: Tools = { ...set, onMissing };
  return { probe: (file: string) => probe(tools, file), frameAt: frameAt(tools), waveform: waveform(tools) };
}
export type MediaTools = ReturnType<typeof createMediaTools>;

async function probe(tools: Tools, file: string): Promise<Probe> {
  const out = await runTool(
    tools.ffprobe,
    [...INPUT_SAFETY, '-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', INPUT],
    file,
    { timeoutMs: 30_000, maxOutputBytes: 1024 * 1024 },
    tools.onMissing,
  );
  const json = JSON.parse(out.toString('utf8')) as ProbeJson;
  const streams = json.streams ?? [];
  // A cover picture inside an MP3 is a "video" stream too; it is not what plays.
  const video = streams.find((s) => s.codec_type === 'video' && !s.disposition?.attached_pic);
  const audio = streams.find((s) => s.codec_type === 'audio');
  const seconds = Number(json.format?.duration ?? video?.duration ?? audio?.duration);
  // A phone video shot upright is stored sideways with a rotation; people expect it upright.
  const rotation = Math.abs(Number(video?.tags?.rotate ?? video?.side_data_list?.[0]?.rotation ?? 0)) % 180;
  const [width, height] = rotation === 90 ? [video?.height, video?.width] : [video?.width, video?.height];
  return {
    durationMs: Number.isFinite(seconds) && seconds > 0 ? Math.round(seconds * 1000) : null,
    width: width ?? null,
    height: height ?? null,
    hasVideo: Boolean(video),
    hasAudio: Boolean(audio),
  };
}

/**
 * ffmpeg reading `file` (from `seek` seconds when given) and writing one PNG image to stdout,
 * made by the filter; one thread, nothing asked on stdin.
 */
function ffmpegToPng(tools: Tools, file: string, filter: string[], limits: RunLimits, seek?: number) {
  const start = seek === undefined ? [] : ['-ss', seek.toFixed(3)];
  return runTool(
    tools.ffmpeg,
    [
      ...['-nostdin', '-v', 'error', '-threads', '1', ...start, ...INPUT_SAFETY, '-i'],
      INPUT,
      ...filter,
      ...['-frames:v', '1', '-f', 'image2pipe', '-vcodec', 'png', 'pipe:1'],
    ],
    file,
    limits,
    tools.onMissing,
  );
}

/** One frame at `atSeconds`, scaled down (never up) to fit `box` pixels, as PNG bytes. */
const frameAt = (tools: Tools) => (file: string, atSeconds: number, box: number) =>
  ffmpegToPng(
    tools,
    file,
    ['-vf', `scale=w='min(iw,${box})':h='min(ih,${box})':force_original_aspect_ratio=decrease`],
    { timeoutMs: 60_000, maxOutputBytes: 16 * 1024 * 1024 },
    atSeconds,
  );

/** The audio's waveform drawn as a `width`×`height` PNG (ffmpeg decodes the whole track). */
const waveform = (tools: Tools) => (file: string, width: number, height: number, color: string) =>
  ffmpegToPng(
    tools,
    file,
    ['-filter_complex', `aformat=channel_layouts=mono,showwavespic=s=${width}x${height}:colors=${color}`],
    { timeoutMs: 180_000, maxOutputBytes: 4 * 1024 * 1024 },
  );
