// Test fixture (sandbox-floor.test.ts): started exactly as the sandbox process is (same plans, same
// flags), it plays an attacker who has already escaped every interpreter and holds all of Node,
// and reports what each way out gives it. Every answer must be a refusal.
import { spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';

const [, , targetsJson] = process.argv;
const targets = JSON.parse(targetsJson);
const report = { uid: process.getuid?.() ?? null, env: Object.keys(process.env) };

function attempt(name, action) {
  try {
    report[name] = `allowed: ${String(action()).slice(0, 80)}`;
  } catch (error) {
    report[name] = `refused: ${error.code ?? error.message}`;
  }
}

attempt('spawn', () => spawnSync('id', { encoding: 'utf8' }).stdout ?? spawnSync('id').error);
attempt('readServerFile', () => readFileSync(targets.serverFile, 'utf8'));
attempt('readServerEnviron', () => readFileSync(`/proc/${targets.serverPid}/environ`, 'utf8'));
attempt('readPasswd', () => readFileSync('/etc/passwd', 'utf8'));
attempt('write', () => writeFileSync(targets.writeFile, 'escaped'));
attempt('binding', () => Object.keys(process.binding('tcp_wrap')));

report.connect = await new Promise((resolve) => {
  try {
    const socket = net.connect(targets.port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve('allowed: connected');
    });
    socket.once('error', (error) => resolve(`refused: ${error.code}`));
  } catch (error) {
    resolve(`refused: ${error.code ?? error.message}`);
  }
});

process.send(report);
process.disconnect();
