// pipecat's own ProtobufFrameSerializer (npm @pipecat-ai/websocket-transport)
// drives cmd/rtvibot through the message sequence of NeMo's evaluation
// bridge (nemo_voice_agent/evaluation/bridge.py), over a WebSocket with the
// bridge's 1 MiB frame limit; then a hostile-input set, each input answered
// or refused — never a hang, never a crash.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import WebSocket from 'ws';
import { Client, MiB, goMissing, messageFrame, messageLength, pyHash, startBot } from './rtvibot.mjs';

const missing = goMissing();
let bot;
before(async () => { if (!missing) bot = await startBot(); });
after(() => bot?.stop());
const opts = { skip: missing || false, timeout: 60000 };

const prompt = 'You are the barista of a coffee shop. Take and manage orders with your tools.';
const tools = '{"get_menu": {}, "place_order": {}, "order_status": {}, "cancel_order": {}, "EndConversationTool": {}}';
const ok = { success: true, errors: [] };

// prepare prepares a coffee scenario on its own connection, as the bridge does.
async function prepare() {
  const c = await Client.connect(bot.url);
  const ready = await c.ready();
  assert.equal(ready.type, 'bot-ready');
  assert.equal(await c.result('reset', {}), true);
  assert.equal(await c.result('update_system_prompt', { prompt, tools, add_suffix: false, tool_domain: 'coffee' }), true);
  assert.deepEqual(await c.result('apply_initialization', { domain: 'coffee', shared_state_init: '{"db_path": "coffee/db.json"}', actions: [] }), ok);
  c.close();
}

test('the bridge sequence: handshake, prompt, initialisation, tool calls, history, summary with the Python hash, sync delta, reset', opts, async () => {
  await prepare();
  const c = await Client.connect(bot.url);
  const ready = await c.ready();
  assert.deepEqual(ready.data, { version: '1.1.0', about: { library: 'schematools-rtvibot' } });
  assert.equal((await c.say('Hello')).length, 0);

  let pushes = await c.say('/call place_order {"customer": "Ada", "items": [{"item_id": "latte", "size": "large", "quantity": 2}]}');
  assert.equal(pushes.length, 1);
  assert.equal(pushes[0].data.type, 'action-applied');
  assert.equal(pushes[0].data.action.name, 'place_order');
  assert.equal(pushes[0].data.tool_domain, 'coffee');
  pushes = await c.say('/call order_status {"order_id": "ORD-042"}');
  assert.equal(pushes.length, 0, 'a read-only call applies nothing');
  pushes = await c.say('/call EndConversationTool {}');
  assert.deepEqual(pushes.map((p) => p.data.text), ['<exit>The task is finished.</exit>']);
  for (const type of ['bot-llm-started', 'bot-llm-stopped', 'metrics', 'bot-tts-text', 'bot-started-speaking']) {
    assert.ok(c.events.some((e) => e.type === type), `a ${type} event`);
  }

  const history = await c.result('get_context_history', {});
  assert.match(history.context, /^\[\{'role': 'system', 'content': 'You are the barista/);
  assert.match(history.context, /'tool_calls': \[\{'id': 'call_1', 'type': 'function'/);

  const summary = await c.result('get_scenario_summary', { include_db: true });
  assert.deepEqual(summary.actions.map((a) => a.name), ['place_order']);
  assert.match(summary.db_hash, /^[0-9a-f]{64}$/);
  assert.equal(pyHash(summary.db), summary.db_hash, "NeMo's get_dict_hash of the DB sent gives the bot's db_hash");
  assert.equal(summary.db.orders['ORD-001'].status, 'placed');
  assert.deepEqual(await c.result('get_scenario_summary', {}), { actions: summary.actions, db_hash: summary.db_hash });

  assert.deepEqual(await c.result('apply_sync_delta', { domain: 'coffee', delta: { 'orders.ORD-001.status': 'ready' } }), ok);
  const synced = await c.result('get_scenario_summary', { include_db: true });
  assert.equal(synced.db.orders['ORD-001'].status, 'ready');
  assert.notEqual(synced.db_hash, summary.db_hash);
  assert.equal(pyHash(synced.db), synced.db_hash);

  assert.equal(await c.result('reset', {}), true);
  assert.equal((await c.result('get_context_history', {})).context, `[{'role': 'system', 'content': '${prompt}'}]`);
  c.close();
});

test('an initialisation action and an inline DB: the hash follows, as in Python', opts, async () => {
  const c = await Client.connect(bot.url);
  await c.ready();
  assert.equal(await c.result('update_system_prompt', { prompt, tools, add_suffix: false, tool_domain: 'coffee' }), true);
  const inline = '{"db": {"menu": {"tea": {"name": "Tea", "prices": {"small": 2.0}}}, "orders": {}, "session": {"x": 1}}}';
  assert.deepEqual(await c.result('apply_initialization', { domain: 'coffee', shared_state_init: inline, actions: [] }), ok);
  const s = await c.result('get_scenario_summary', { include_db: true });
  assert.equal(s.db_hash, pyHash(JSON.parse(inline).db));
  // An unknown initialisation function fails as NeMo reports it, and the request is answered.
  const bad = await c.result('apply_initialization', { domain: 'coffee', actions: [{ func_name: 'no_such_init', arguments: {} }] });
  assert.equal(bad.success, false);
  assert.equal(bad.errors.length, 1);
  // The connection prepared and never ran: its close would reserve the
  // scenario for its run connection. Running a turn on it makes it the
  // run, whose close frees the bot for the next test.
  await c.say('Hello');
  c.close();
});

test('a client-ready with an incompatible version gets an error-response, then bot-ready (as pipecat)', opts, async () => {
  const c = await Client.connect(bot.url);
  const id = c.sendMessage('client-ready', { version: '3.0.0', about: { library: 'future' } });
  const first = await c.next((f) => f.type === 'message', 5000);
  assert.deepEqual(first.message, { label: 'rtvi-ai', type: 'error-response', id,
    data: { error: 'RTVI version 3.0.0 is not compatible with server protocol 2.1.0. Compatibility issues may occur.' } });
  const ready = await c.answer(id);
  assert.equal(ready.type, 'bot-ready');
  assert.equal(ready.data.version, '2.1.0');
  c.close();
});

test('a reply just under 1 MiB of JSON reaches a client limited to 1 MiB frames, or an error-response does at once', opts, async () => {
  const c = await Client.connect(bot.url, { maxPayload: MiB });
  await c.ready();
  assert.equal(await c.result('update_system_prompt', { prompt, tools, add_suffix: false, tool_domain: 'coffee' }), true);
  const historyOf = async (text) => {
    assert.equal(await c.result('reset', {}), true);
    await c.say(text);
    const start = Date.now();
    const m = await c.request('get_context_history', {}, 5000);
    return { m, ms: Date.now() - start, frame: c.lastAnswerBytes };
  };
  const small = await historyOf('a');
  const overhead = messageLength(small.frame) - 1; // the JSON of the reply, but for the text
  for (const size of [MiB - 8, MiB - 4, MiB]) {
    const { m, ms, frame } = await historyOf('a'.repeat(size - overhead));
    assert.ok(ms < 2000, `answered in ${ms} ms`);
    assert.ok(frame.length <= MiB);
    if (m.type === 'server-response') {
      assert.equal(messageLength(frame), size);
    } else {
      assert.equal(m.type, 'error-response');
      assert.match(m.data.error, /larger than the 1048576-byte limit/);
    }
  }
  assert.equal(c.closed, null, 'the connection is still open');
  c.close();
});

// The hostile set. Each input gets an answer (an error-response, an RTVI
// error event) or is refused (dropped as pipecat drops it, or the
// connection closed for an over-limit frame); a request right after it is
// answered, and the bot process lives on.
test('hostile input: malformed frames are dropped, and the connection goes on', opts, async () => {
  const c = await Client.connect(bot.url);
  for (const bad of [[0xff, 0xff], [0x22, 0x05, 0x0a], [0x08], [0x22, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x80, 0x01], []]) {
    c.ws.send(Buffer.from(bad));
  }
  c.ws.send('a text WebSocket message'); // frames are binary: ignored
  c.ws.send(Buffer.from([0x0a, 0x03, 0x0a, 0x01, 0x41])); // a text frame "A": user text, answered
  assert.equal((await c.ready()).type, 'bot-ready');
  assert.equal(await c.result('reset', {}), true);
  c.close();
});

test('hostile input: invalid RTVI messages get an error event or an error-response', opts, async () => {
  const c = await Client.connect(bot.url);
  const errorEvent = async (bytes) => {
    c.ws.send(messageFrame(Buffer.from(bytes)));
    const f = await c.next((f) => f.type === 'message' && f.message.type === 'error', 5000, 'an error event');
    assert.equal(f.message.data.fatal, false);
    assert.match(f.message.data.error, /^Invalid RTVI transport message: /);
  };
  await errorEvent('{not json');
  await errorEvent('[1, 2]');
  await errorEvent('{"label": "rtvi-ai", "type": "client-message", "id": 7, "data": {"t": "reset"}}');
  await errorEvent('{"label": "rtvi-ai", "type": "client-message", "id": "x", "data": "reset"}');
  await errorEvent('{"label": "rtvi-ai", "type": "client-message", "id": "x", "data": {"t": "reset"}} trailing');

  let m = await c.answer(c.sendMessage('ui-event', {}));
  assert.deepEqual([m.type, m.data.error], ['error-response', 'Unsupported type ui-event']);
  m = await c.request('no_such_message', {});
  assert.deepEqual([m.type, m.data.error], ['error-response', 'unknown message type: no_such_message']);
  m = await c.answer(c.sendMessage('client-message', { d: {} }));
  assert.equal(m.type, 'error-response');
  m = await c.request('apply_initialization', { shared_state_init: '{"db_path": "../../etc/passwd"}' });
  assert.equal(m.data.d.success, false);
  assert.match(m.data.d.errors[0], /^PermissionError: /);
  m = await c.request('apply_sync_delta', { domain: 'coffee', delta: 'not a dict' });
  assert.equal(m.data.d.success, false);

  // Another label is ignored, as pipecat ignores it; the next request is answered.
  c.ws.send(messageFrame(Buffer.from('{"label": "other", "type": "client-message", "id": "o", "data": {"t": "reset"}}')));
  assert.equal(await c.result('reset', {}), true);
  c.close();
});

test('hostile input: deep nesting is answered, in a message and in tool arguments', opts, async () => {
  const c = await Client.connect(bot.url);
  await c.ready();
  const deep = (n) => '['.repeat(n) + ']'.repeat(n);
  c.ws.send(messageFrame(Buffer.from(`{"label": "rtvi-ai", "type": "client-message", "id": "deep", "data": {"t": "reset", "d": ${deep(200000)}}}`)));
  const f = await c.next((f) => f.type === 'message' && (f.message.id === 'deep' || f.message.type === 'error'), 5000, 'an answer to deep nesting');
  assert.ok(['error', 'error-response', 'server-response'].includes(f.message.type));

  assert.equal(await c.result('update_system_prompt', { prompt, tools, add_suffix: false, tool_domain: 'coffee' }), true);
  await c.say(`/call place_order {"customer": ${deep(100000)}}`);
  await c.say(`/call place_order ${'{"a":'.repeat(50000)}1${'}'.repeat(50000)}`);
  const summary = await c.result('get_scenario_summary', {});
  assert.deepEqual(summary.actions, [], 'nothing was applied');
  c.close();
});

test('hostile input: a huge payload closes that connection (1009), a large one is answered; the bot lives on', opts, async () => {
  const c = await Client.connect(bot.url);
  await c.ready();
  const padded = (n) => JSON.stringify({ label: 'rtvi-ai', type: 'client-message', id: 'big', data: { t: 'reset', d: { pad: 'a'.repeat(n) } } });
  c.ws.send(messageFrame(Buffer.from(padded(900 * 1024))));
  assert.equal((await c.answer('big')).type, 'server-response');
  const over = Buffer.from(padded(MiB - 20)); // JSON over 1 MiB, frame within the bot's read limit
  assert.ok(over.length > MiB && over.length < MiB + 1000);
  c.ws.send(messageFrame(over));
  const refused = await c.next((f) => f.type === 'message' && f.message.type === 'error', 5000, 'an error event');
  assert.match(refused.message.data.error, /larger than the 1048576-byte limit/);
  c.ws.send(messageFrame(Buffer.from(padded(4 * MiB))));
  await assert.rejects(c.next(() => false, 5000, 'the close'), (e) => e.closed?.code === 1009);

  const fresh = await Client.connect(bot.url);
  assert.equal((await fresh.ready()).type, 'bot-ready');
  fresh.close();
  assert.equal(bot.proc.exitCode, null, `the bot is running: ${bot.stderr()}`);
});

test('hostile input: a connection that is cut mid-scenario leaves the bot serving', opts, async () => {
  const c = await Client.connect(bot.url);
  await c.ready();
  c.sendMessage('client-message', { t: 'get_context_history', d: {} });
  c.ws.terminate();
  const raw = new WebSocket(bot.url);
  await new Promise((resolve, reject) => { raw.once('open', resolve); raw.once('error', reject); });
  raw.send(Buffer.from([0x22, 0x10])); // a frame cut short
  raw.terminate();
  const fresh = await Client.connect(bot.url);
  assert.equal((await fresh.ready()).type, 'bot-ready');
  assert.deepEqual(Object.keys(await fresh.result('get_scenario_summary', {})), ['actions', 'db_hash']);
  fresh.close();
  assert.equal(bot.proc.exitCode, null);
});

test("the get_dict_hash port gives NeMo's hash (the vector of rtvi's TestApplyInitializationLoadsAListDB)", () => {
  const list = JSON.parse('[{"session": 1, "b": 1.0, "a": "None", "bookings": [3, 1]}, 2.5, "x", null]');
  assert.equal(pyHash(list), 'fbc8ff7124bc02de8573715d61e9d63956120423e1d321bed790893bc329e18b');
});
