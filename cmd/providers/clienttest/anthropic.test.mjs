// The official @anthropic-ai/sdk client (pinned in package-lock.json)
// reads the stand-in's Messages dialect (`cmd/standin -dialect
// anthropic`, its demo script): a stream, the SDK's stream accumulator and
// a non-stream request give the same thinking block, text, calls and
// usage (input and output tokens in different events).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import Anthropic from '@anthropic-ai/sdk';
import { start, wantText, wantThinking, wantCalls, wantIDs } from './standin-proc.mjs';

const tools = [{ name: 'get_order_details', description: 'Get an order.', input_schema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } }];
const params = { model: 'standin', max_tokens: 1024, system: 'You are a retail agent.', messages: [{ role: 'user', content: 'Where is my order?' }], tools };
// input_tokens excludes the cache: 120 prompt tokens, 64 read, 6 written.
const wantUsage = { input_tokens: 50, cache_read_input_tokens: 64, cache_creation_input_tokens: 6, output_tokens: 30 };

let srv;
before(async () => { srv = await start('anthropic'); });
after(() => srv?.stop());

const client = () => new Anthropic({ apiKey: 'test', baseURL: srv.url, maxRetries: 0 });

function check(msg) {
  assert.equal(msg.role, 'assistant');
  assert.equal(msg.stop_reason, 'tool_use');
  const [thinking, text, ...uses] = msg.content;
  assert.equal(thinking.type, 'thinking');
  assert.equal(thinking.thinking, wantThinking);
  assert.ok(thinking.signature, 'the thinking block is signed');
  assert.equal(text.type, 'text');
  assert.equal(text.text, wantText);
  assert.deepEqual(uses.map((u) => ({ id: u.id, name: u.name, args: u.input })), wantCalls.map((c, i) => ({ id: wantIDs[i], ...c })));
  const u = msg.usage;
  assert.deepEqual({ input_tokens: u.input_tokens, cache_read_input_tokens: u.cache_read_input_tokens, cache_creation_input_tokens: u.cache_creation_input_tokens, output_tokens: u.output_tokens }, wantUsage);
}

test('a stream: message_start with the input usage, blocks in deltas, message_delta with the output usage', async (t) => {
  if (srv.skip) return t.skip(srv.skip);
  const stream = await client().messages.create({ ...params, stream: true });
  const types = [];
  let input;
  let output;
  const partial = {};
  for await (const ev of stream) {
    types.push(ev.type);
    if (ev.type === 'message_start') input = ev.message.usage.input_tokens;
    if (ev.type === 'message_delta') {
      output = ev.usage.output_tokens;
      assert.equal(ev.delta.stop_reason, 'tool_use');
    }
    if (ev.type === 'content_block_delta' && ev.delta.type === 'input_json_delta') partial[ev.index] = (partial[ev.index] ?? '') + ev.delta.partial_json;
  }
  assert.equal(types[0], 'message_start');
  assert.equal(types.at(-1), 'message_stop');
  assert.equal(types.at(-2), 'message_delta');
  assert.equal(input, wantUsage.input_tokens);
  assert.equal(output, wantUsage.output_tokens);
  assert.deepEqual(Object.values(partial).map((p) => JSON.parse(p)), wantCalls.map((c) => c.args));
});

test("the SDK's stream accumulator and a non-stream request agree", async (t) => {
  if (srv.skip) return t.skip(srv.skip);
  check(await client().messages.stream(params).finalMessage());
  check(await client().messages.create(params));
});

test('a scripted error body is the SDK error type for its status', async (t) => {
  if (srv.skip) return t.skip(srv.skip);
  await assert.rejects(client().messages.create({ ...params, max_tokens: undefined }), (e) => e instanceof Anthropic.BadRequestError);
});
