// pipecat's own npm client decodes what cmd/rtvibot sends: the binary
// frames of two scripted turns (testdata/turn_frames.golden, written by the
// Go test TestScriptedTurnEvents) go through the websocket transport's
// ProtobufFrameSerializer, and each message through PipecatClient's message
// handling, whose callbacks must see every server event with its data.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

// The client looks at window.navigator when it starts; Node has no window.
globalThis.window ??= globalThis;
const { PipecatClient, Transport, RTVIMessageType, LogLevel, logger } = await import('@pipecat-ai/client-js');
const { ProtobufFrameSerializer } = await import('@pipecat-ai/websocket-transport');
logger.setLevel(LogLevel.WARN);

// A transport with no network: it hands the client's message handler to
// the test, which plays the socket.
class FrameFeeder extends Transport {
  initialize(options, messageHandler) { this.deliver = messageHandler; }
  async initDevices() {}
  async _connect() {}
  async _disconnect() {}
  sendReadyMessage() {}
  sendMessage() {}
  get state() { return 'ready'; }
  set state(_) {}
}

const frames = readFileSync(new URL('../testdata/turn_frames.golden', import.meta.url), 'utf8')
  .split('\n').filter(Boolean).map((line) => Buffer.from(line, 'base64'));

async function decodeAll() {
  const serializer = new ProtobufFrameSerializer();
  const out = [];
  for (const f of frames) {
    try {
      out.push(await serializer.deserialize(new Blob([f])));
    } catch (e) {
      out.push({ type: 'undecodable', error: String(e) }); // text frames: the serializer reads audio and messages only
    }
  }
  return out;
}

test('every frame decodes: RTVI messages with the protocol label, or the bot\'s text frames', async () => {
  const decoded = await decodeAll();
  assert.equal(decoded.length, frames.length);
  const messages = decoded.filter((d) => d.type === 'message');
  assert.ok(messages.length >= 20, `only ${messages.length} messages`);
  for (const { message } of messages) {
    assert.equal(message.label, 'rtvi-ai');
    assert.ok(Object.values(RTVIMessageType).includes(message.type), `${message.type} is a client-js message type`);
    assert.equal(message.id, undefined, `${message.type}: server events carry no id`);
  }
  // The two undecodable ones are the text frames the demo harness reads.
  assert.equal(decoded.filter((d) => d.type === 'undecodable').length, 2);
});

test('PipecatClient dispatches each event to its callback with pipecat\'s data', async () => {
  const seen = [];
  const record = (name) => (data) => seen.push(data === undefined ? [name] : [name, data]);
  const transport = new FrameFeeder();
  new PipecatClient({
    transport,
    callbacks: {
      onBotLlmStarted: record('llm-started'), onBotLlmText: record('llm-text'), onBotLlmStopped: record('llm-stopped'),
      onMetrics: record('metrics'), onServerMessage: record('server-message'),
      onBotTtsStarted: record('tts-started'), onBotTtsText: record('tts-text'), onBotTtsStopped: record('tts-stopped'),
      onBotStartedSpeaking: record('started-speaking'), onBotStoppedSpeaking: record('stopped-speaking'),
      onUserTranscript: record('user-transcript'),
    },
  });
  for (const d of await decodeAll()) {
    if (d.type === 'message') transport.deliver(d.message);
  }
  const names = seen.map((s) => s[0]);
  const turn = ['llm-started', 'llm-stopped', 'metrics', 'server-message', 'llm-started', 'llm-text', 'llm-stopped',
    'metrics', 'tts-started', 'started-speaking', 'tts-text', 'stopped-speaking', 'tts-stopped'];
  const spoken = ['user-transcript', 'llm-started', 'llm-stopped', 'metrics', 'llm-started', 'llm-text', 'llm-stopped',
    'metrics', 'tts-started', 'started-speaking', 'tts-text', 'stopped-speaking', 'tts-stopped'];
  assert.deepEqual(names, [...turn, ...spoken]);

  // One tokens entry per agent response: what NeMo's runner counts.
  const metrics = seen.filter((s) => s[0] === 'metrics').map((s) => s[1]);
  assert.equal(metrics.length, 4);
  for (const m of metrics) {
    assert.deepEqual(m, { tokens: [{ prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 }] });
  }
  const [, transcript] = seen.find((s) => s[0] === 'user-transcript');
  assert.deepEqual(Object.keys(transcript), ['text', 'user_id', 'timestamp', 'final']);
  assert.equal(transcript.final, true);
  assert.equal(transcript.user_id, 'user-1');
  const texts = seen.filter((s) => s[0] === 'tts-text').map((s) => s[1].text);
  assert.equal(texts.length, 2);
  assert.match(texts[0], /"order_id":"ORD-001"/);
  const action = seen.find((s) => s[0] === 'server-message')[1];
  assert.equal(action.type, 'action-applied');
  assert.equal(action.action.name, 'place_order');
});
