// The official openai npm client (pinned in package-lock.json) reads the
// agenttest stand-in (`go run ./cmd/standin`, its demo script: the
// same turn twice): a stream with include_usage and a non-stream request
// must give the same text, the same calls and the same usage, and the
// SDK's own stream accumulator (chat.completions.stream) must agree.
// With CI set, a missing `go` fails the suite instead of skipping it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import OpenAI from 'openai';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');

const wantText = 'Let me look that up — un momento.';
const wantCalls = [
  { id: 'call_1', name: 'get_order_details', arguments: '{"order_id": "#W0000001", "note": "ünïcode ✓"}' },
  { id: 'call_2', name: 'get_user_details', arguments: '{"user_id": "ann_1"}' },
];
const wantUsage = { prompt_tokens: 120, completion_tokens: 30, total_tokens: 150 };

const tools = [{
  type: 'function',
  function: { name: 'get_order_details', description: 'Get an order.', parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } },
}];
const messages = [{ role: 'system', content: 'You are a retail agent.' }, { role: 'user', content: 'Where is my order?' }];

let proc;
let bin; // the built stand-in's directory
let baseURL;
let skip = '';

before(async () => {
  if (spawnSync('go', ['version'], { stdio: 'ignore' }).status !== 0) {
    if (process.env.CI) throw new Error('go is not on PATH: the suite must run under CI');
    skip = 'go is not on PATH';
    return;
  }
  // Built, not `go run`: killing `go run` would leave its child serving.
  bin = mkdtempSync(join(tmpdir(), 'standin-'));
  const exe = join(bin, 'standin');
  execFileSync('go', ['build', '-o', exe, './cmd/standin'], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  // The loop makes every test see the demo turn, in any order.
  proc = spawn(exe, ['-loop'], { stdio: ['ignore', 'pipe', 'inherit'] });
  baseURL = await new Promise((resolve, reject) => {
    let buf = '';
    proc.stdout.on('data', (d) => {
      buf += d;
      const m = buf.match(/listening on (http:\/\/\S+)/);
      if (m) resolve(m[1] + '/v1');
    });
    proc.on('exit', (code) => reject(new Error(`standin exited with ${code}`)));
  });
});

after(() => {
  if (proc) proc.kill('SIGTERM');
  if (bin) rmSync(bin, { recursive: true, force: true });
});

function client() {
  return new OpenAI({ apiKey: 'test', baseURL, maxRetries: 0 });
}

test('a stream with include_usage: role first, call fragments, finish_reason, usage chunk, [DONE]', async (t) => {
  if (skip) return t.skip(skip);
  const stream = await client().chat.completions.create({
    model: 'standin', messages, tools, stream: true, stream_options: { include_usage: true },
  });
  let text = '';
  const calls = [];
  let finish;
  let usage;
  let first = true;
  let chunks = 0;
  for await (const chunk of stream) {
    chunks++;
    assert.equal(chunk.object, 'chat.completion.chunk');
    if (chunk.usage) {
      assert.deepEqual(chunk.choices, [], 'the usage chunk has no choices');
      usage = chunk.usage;
      continue;
    }
    const c = chunk.choices[0];
    if (first) {
      assert.equal(c.delta.role, 'assistant', 'the first chunk carries the role');
      first = false;
    }
    if (c.delta.content) text += c.delta.content;
    for (const tc of c.delta.tool_calls ?? []) {
      if (tc.id) calls[tc.index] = { id: tc.id, name: tc.function.name, arguments: '' };
      calls[tc.index].arguments += tc.function.arguments ?? '';
    }
    if (c.finish_reason) finish = c.finish_reason;
  }
  assert.ok(chunks > 10, 'the arguments come in fragments');
  assert.equal(text, wantText);
  assert.deepEqual(calls, wantCalls);
  assert.equal(finish, 'tool_calls');
  assert.deepEqual({ prompt_tokens: usage.prompt_tokens, completion_tokens: usage.completion_tokens, total_tokens: usage.total_tokens }, wantUsage);
  assert.equal(usage.prompt_tokens_details.cached_tokens, 64);
});

test('a non-stream request gives the same text, calls and usage', async (t) => {
  if (skip) return t.skip(skip);
  const r = await client().chat.completions.create({ model: 'standin', messages, tools });
  assert.equal(r.object, 'chat.completion');
  const m = r.choices[0].message;
  assert.equal(m.content, wantText);
  assert.deepEqual(m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })), wantCalls);
  assert.equal(r.choices[0].finish_reason, 'tool_calls');
  assert.equal(r.usage.total_tokens, wantUsage.total_tokens);
});

test("the SDK's stream accumulator agrees", async (t) => {
  if (skip) return t.skip(skip);
  const stream = client().chat.completions.stream({
    model: 'standin', messages, tools, stream_options: { include_usage: true },
  });
  const done = await stream.finalChatCompletion();
  const m = done.choices[0].message;
  assert.equal(m.content, wantText);
  assert.deepEqual(m.tool_calls.map((c) => ({ id: c.id, name: c.function.name, arguments: c.function.arguments })), wantCalls);
  assert.equal(done.usage.total_tokens, wantUsage.total_tokens);
});
