// Starts the built stand-in (cmd/standin) for the node tests, in one
// dialect, looping its demo script. With CI set, a missing `go` fails the
// suite instead of skipping it.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');

// The demo turn of cmd/standin, as each dialect's client reads it.
export const wantText = 'Let me look that up — un momento.';
export const wantThinking = 'The user asks about an order: look it up.';
export const wantCalls = [
  { name: 'get_order_details', args: { order_id: '#W0000001', note: 'ünïcode ✓' } },
  { name: 'get_user_details', args: { user_id: 'ann_1' } },
];
export const wantIDs = ['call_1', 'call_2'];

// start returns { url, skip, stop }: the stand-in's base URL, or why the
// suite is skipped.
export async function start(dialect) {
  if (spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0) {
    if (process.env.CI) throw new Error('go is not on PATH: the suite must run under CI');
    return { skip: 'go is not on PATH', stop() {} };
  }
  // Built, not `go run`: killing `go run` would leave its child serving.
  const bin = mkdtempSync(join(tmpdir(), 'standin-'));
  const exe = join(bin, 'standin');
  execFileSync('go', ['build', '-o', exe, './cmd/standin'], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  const proc = spawn(exe, ['-loop', '-dialect', dialect], { stdio: ['ignore', 'pipe', 'inherit'] });
  const url = await new Promise((resolve, reject) => {
    let buf = '';
    proc.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/listening on (http:\/\/\S+)/);
      if (m) resolve(m[1]);
    });
    proc.on('exit', (code) => reject(new Error(`standin exited with ${code}`)));
  });
  return {
    url,
    skip: '',
    stop() {
      proc.kill('SIGTERM');
      rmSync(bin, { recursive: true, force: true });
    },
  };
}
