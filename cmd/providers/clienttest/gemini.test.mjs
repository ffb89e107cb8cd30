// The official @google/genai client (pinned in package-lock.json) reads
// the stand-in's Gemini dialect (`cmd/standin -dialect gemini`, its
// demo script): streamGenerateContent?alt=sse and generateContent give
// the same thought, text, calls (no ids, as the Gemini API sends them),
// thought signature and usageMetadata; a model turn sent back without its
// signature is answered 400.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { GoogleGenAI } from '@google/genai';
import { start, wantText, wantThinking, wantCalls } from './standin-proc.mjs';

const config = {
  systemInstruction: 'You are a retail agent.',
  tools: [{ functionDeclarations: [{ name: 'get_order_details', description: 'Get an order.', parameters: { type: 'OBJECT', properties: { order_id: { type: 'STRING' } }, required: ['order_id'] } }] }],
};
const contents = [{ role: 'user', parts: [{ text: 'Where is my order?' }] }];
const wantUsage = { promptTokenCount: 120, candidatesTokenCount: 30, totalTokenCount: 162, cachedContentTokenCount: 64, thoughtsTokenCount: 12 };

let srv;
before(async () => { srv = await start('gemini'); });
after(() => srv?.stop());

const client = () => new GoogleGenAI({ apiKey: 'test', httpOptions: { baseUrl: srv.url } });

function usageOf(u) {
  return { promptTokenCount: u.promptTokenCount, candidatesTokenCount: u.candidatesTokenCount, totalTokenCount: u.totalTokenCount, cachedContentTokenCount: u.cachedContentTokenCount, thoughtsTokenCount: u.thoughtsTokenCount };
}

// read returns what the parts say: thought, text, calls, signed call.
function read(parts) {
  const out = { thought: '', text: '', calls: [], signed: [] };
  for (const p of parts) {
    if (p.thought) out.thought += p.text;
    else if (p.text) out.text += p.text;
    if (p.functionCall) {
      assert.equal(p.functionCall.id, undefined, 'the Gemini API sends no call ids');
      out.calls.push({ name: p.functionCall.name, args: p.functionCall.args });
      if (p.thoughtSignature) out.signed.push(p.functionCall.name);
    }
  }
  return out;
}

function check(got) {
  assert.equal(got.thought, wantThinking);
  assert.equal(got.text, wantText);
  assert.deepEqual(got.calls, wantCalls);
  assert.deepEqual(got.signed, [wantCalls[0].name], 'the signature is on the first call');
}

let modelParts; // the non-stream answer's parts, sent back below

test('a stream and a non-stream request give the same parts and usage', async (t) => {
  if (srv.skip) return t.skip(srv.skip);
  const parts = [];
  let usage;
  let finish;
  let chunks = 0;
  for await (const r of await client().models.generateContentStream({ model: 'standin', contents, config })) {
    chunks++;
    parts.push(...(r.candidates?.[0]?.content?.parts ?? []));
    if (r.candidates?.[0]?.finishReason) finish = r.candidates[0].finishReason;
    usage = r.usageMetadata ?? usage;
  }
  assert.ok(chunks > 5, 'text in pieces');
  check(read(parts));
  assert.equal(finish, 'STOP');
  assert.deepEqual(usageOf(usage), wantUsage);

  const r = await client().models.generateContent({ model: 'standin', contents, config });
  modelParts = r.candidates[0].content.parts;
  check(read(modelParts));
  assert.equal(r.text, wantText);
  assert.deepEqual(r.functionCalls.map((c) => ({ name: c.name, args: c.args })), wantCalls);
  assert.deepEqual(usageOf(r.usageMetadata), wantUsage);
});

test('the model turn goes back whole; without its signature it is refused', async (t) => {
  if (srv.skip) return t.skip(srv.skip);
  const results = { role: 'user', parts: wantCalls.map((c) => ({ functionResponse: { name: c.name, response: { output: 'ok' } } })) };
  const whole = [...contents, { role: 'model', parts: modelParts }, results];
  const r = await client().models.generateContent({ model: 'standin', contents: whole, config });
  assert.equal(r.text, wantText);
  const stripped = modelParts.map(({ thoughtSignature, ...p }) => p);
  await assert.rejects(
    client().models.generateContent({ model: 'standin', contents: [...contents, { role: 'model', parts: stripped }, results], config }),
    (e) => e.status === 400 && /missing a thought_signature/.test(e.message),
  );
});
