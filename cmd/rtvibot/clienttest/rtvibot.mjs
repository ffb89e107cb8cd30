// Helpers of the suite: start cmd/rtvibot, talk to it as NeMo's
// evaluation bridge does, through pipecat's own ProtobufFrameSerializer
// over a WebSocket limited, as the bridge's Python websockets client is,
// to 1 MiB frames — and NeMo's get_dict_hash, ported to check db_hash.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import WebSocket from 'ws';
import assert from 'node:assert/strict';

const { ProtobufFrameSerializer } = await import('@pipecat-ai/websocket-transport');

export const MiB = 1 << 20;
const repo = fileURLToPath(new URL('../../..', import.meta.url));

// goMissing says why the bot cannot be built here, or '' when it can. Under
// CI a missing toolchain is a failure, not a skip.
export function goMissing() {
  const r = spawnSync('go', ['version'], { encoding: 'utf8' });
  if (!r.error && r.status === 0) return '';
  const why = `go not found: ${r.error ? r.error.message : r.stderr}`;
  if (process.env.CI) throw new Error(`${why} (CI is set: the suite must run)`);
  return why;
}

// startBot builds cmd/rtvibot into a temporary directory and serves it
// on a free loopback port. It returns { url, proc, stop }.
export async function startBot() {
  const dir = mkdtempSync(join(tmpdir(), 'rtvibot-clienttest-'));
  const bin = join(dir, 'rtvibot');
  const build = spawnSync('go', ['build', '-o', bin, './cmd/rtvibot'], { cwd: repo, encoding: 'utf8' });
  if (build.status !== 0) throw new Error(`go build failed: ${build.error ?? build.stderr}`);
  const proc = spawn(bin, ['-addr', '127.0.0.1:0'], { stdio: ['ignore', 'pipe', 'pipe'] });
  let stderr = '';
  proc.stderr.on('data', (d) => { stderr += d; });
  const url = await new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`rtvibot did not start: ${stderr}`)), 30000);
    proc.stdout.on('data', (d) => {
      out += d;
      const m = out.match(/listening on (ws:\/\/\S+)/);
      if (m) { clearTimeout(timer); resolve(m[1]); }
    });
    proc.on('exit', (code) => { clearTimeout(timer); reject(new Error(`rtvibot exited (${code}): ${stderr}`)); });
  });
  return {
    url, proc,
    stderr: () => stderr,
    stop() { proc.kill('SIGINT'); rmSync(dir, { recursive: true, force: true }); },
  };
}

// Client is one harness connection. Every frame the bot sends is decoded
// by pipecat's ProtobufFrameSerializer; frames it cannot read (the bot's
// text frames) are kept as { type: 'text' }.
export class Client {
  static async connect(url, { maxPayload = MiB } = {}) {
    const c = new Client(new WebSocket(url, { maxPayload }));
    await new Promise((resolve, reject) => {
      c.ws.once('open', resolve);
      c.ws.once('error', reject);
    });
    return c;
  }

  constructor(ws) {
    this.ws = ws;
    this.serializer = new ProtobufFrameSerializer();
    this.frames = []; // decoded, not yet consumed
    this.pushes = []; // server-messages (action-applied, <exit>, ...)
    this.events = []; // other messages without an id (bot-llm-*, metrics, ...)
    this.waiters = [];
    this.closed = null; // { code, reason } once closed
    this.ids = 0;
    this.pending = Promise.resolve();
    ws.on('message', (data, isBinary) => {
      // Decode in arrival order (deserialize is async).
      this.pending = this.pending.then(async () => {
        let f;
        try {
          f = await this.serializer.deserialize(new Blob([data]));
          f.bytes = data;
        } catch (e) {
          f = { type: 'text', bytes: data, binary: isBinary, error: String(e) };
        }
        this.frames.push(f);
        this.wake();
      });
    });
    ws.on('close', (code, reason) => {
      this.pending.then(() => { this.closed = { code, reason: String(reason) }; this.wake(); });
    });
    ws.on('error', () => {}); // a close follows
  }

  wake() { for (const w of this.waiters.splice(0)) w(); }

  // next returns the first frame matching pred, within ms. Messages without
  // an id that do not match are kept in pushes or events.
  async next(pred, ms = 5000, what = 'a frame') {
    const deadline = Date.now() + ms;
    for (;;) {
      while (this.frames.length) {
        const f = this.frames.shift();
        if (pred(f)) return f;
        if (f.type === 'message' && f.message.id === undefined) {
          (f.message.type === 'server-message' ? this.pushes : this.events).push(f.message);
        }
      }
      if (this.closed) throw Object.assign(new Error(`closed (${this.closed.code}) while waiting for ${what}`), { closed: this.closed });
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${what} within ${ms} ms`);
      await new Promise((resolve) => {
        const t = setTimeout(resolve, left);
        this.waiters.push(() => { clearTimeout(t); resolve(); });
      });
    }
  }

  sendMessage(type, data, id = `${type}_${++this.ids}`) {
    const msg = { label: 'rtvi-ai', type, id };
    if (data !== undefined) msg.data = data;
    this.ws.send(this.serializer.serializeMessage(msg));
    return id;
  }

  // answer waits for the reply to id: a message with that id.
  async answer(id, ms = 5000) {
    const f = await this.next((f) => f.type === 'message' && f.message.id === id, ms, `the answer to ${id}`);
    this.lastAnswerBytes = f.bytes;
    return f.message;
  }

  async ready(version = '1.1.0') {
    return this.answer(this.sendMessage('client-ready', { version, about: { library: 'evaluation-bridge', library_version: '1.0.0' } }));
  }

  async request(t, d, ms) {
    return this.answer(this.sendMessage('client-message', { t, d }, `${t}_${++this.ids}`), ms);
  }

  // result sends a request that must succeed and returns its d.
  async result(t, d) {
    const m = await this.request(t, d);
    if (m.type !== 'server-response') throw new Error(`${t}: ${JSON.stringify(m)}`);
    return m.data.d;
  }

  // say sends user text as pipecat's client does (send-text) and waits
  // for the bot's turn to end (its text frame).
  async say(content, ms = 5000) {
    const before = this.pushes.length;
    this.sendMessage('send-text', { content, options: {} });
    await this.next((f) => f.type === 'text', ms, `the answer to ${content.slice(0, 40)}`);
    return this.pushes.slice(before);
  }

  close() { this.ws.close(1000, 'done'); }
}

// messageFrame encodes a pipecat Frame whose message member holds the
// bytes data, whatever they are (the serializer only sends valid JSON).
export function messageFrame(data) {
  const inner = Buffer.concat([Buffer.from([0x0a]), varint(data.length), data]);
  return Buffer.concat([Buffer.from([0x22]), varint(inner.length), inner]);
}

// messageLength is the length of the data of a message frame (the
// RTVI message's JSON, as the bot wrote it).
export function messageLength(frame) {
  let i = 0;
  const read = () => {
    let n = 0;
    for (let shift = 1; ; shift *= 128) {
      const b = frame[i++];
      n += (b & 0x7f) * shift;
      if (b < 0x80) return n;
    }
  };
  assert.equal(frame[i++], 0x22);
  read();
  assert.equal(frame[i++], 0x0a);
  return read();
}

function varint(n) {
  const out = [];
  while (n >= 0x80) { out.push((n & 0x7f) | 0x80); n = Math.floor(n / 128); }
  out.push(n);
  return Buffer.from(out);
}

// pyHash is NeMo's get_dict_hash (nemo_voice_agent/evaluation/db_hash.py):
// drop "session" at the top level, normalise (whole floats to ints, "none"
// and "null" strings to null, order-independent lists sorted), then the
// SHA-256 of json.dumps(sort_keys=True, separators=(",", ":")). JSON.parse
// has already made whole floats ints.
export function pyHash(obj) {
  if (obj && typeof obj === 'object' && !Array.isArray(obj)) {
    obj = Object.fromEntries(Object.entries(obj).filter(([k]) => k !== 'session'));
  }
  return createHash('sha256').update(pyDumps(normalize(obj))).digest('hex');
}

const orderIndependent = new Set(['standby_list', 'notifications', 'bookings', 'system_accounts', 'group_memberships', 'asset_recoveries']);

function normalize(v) {
  if (Array.isArray(v)) return v.map(normalize);
  if (v && typeof v === 'object') {
    const out = {};
    for (const [k, x] of Object.entries(v)) {
      let n = normalize(x);
      if (orderIndependent.has(k) && Array.isArray(n)) {
        n = n.map((e) => [pyDumps(e), e]).sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).map((p) => p[1]);
      }
      out[k] = n;
    }
    return out;
  }
  if (typeof v === 'string' && ['none', 'null'].includes(v.trim().toLowerCase())) return null;
  return v;
}

// pyDumps is json.dumps(v, sort_keys=True, separators=(",", ":")) with
// ensure_ascii, for the values JSON.parse gives.
function pyDumps(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return `[${v.map(pyDumps).join(',')}]`;
  if (typeof v === 'object') {
    const keys = Object.keys(v).sort();
    return `{${keys.map((k) => `${pyString(k)}:${pyDumps(v[k])}`).join(',')}}`;
  }
  if (typeof v === 'string') return pyString(v);
  if (typeof v === 'number') {
    if (Number.isInteger(v)) return String(v);
    return String(v); // shortest round-trip, as Python's repr for plain decimals
  }
  return JSON.stringify(v);
}

function pyString(s) {
  return JSON.stringify(s).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
