// The providers' own npm SDKs judge what package tool/schema exports.
// `go run ./examples/providers` writes every domain of examples/domains in
// every dialect; then
//   - tsc (pinned typescript) type-checks each tool set as the SDKs' typed
//     tool lists and request params (openai's ChatCompletionTool and
//     ResponseCreateParams, @anthropic-ai/sdk's Tool and
//     MessageCreateParams, @google/genai's Tool and GenerateContentParameters
//     with its Type enum), and must refuse the known-bad controls;
//   - ajv (draft 2020-12) compiles every JSON Schema dialect's parameters;
//   - strict exports meet OpenAI's strict-mode rules (every object closed,
//     every property required, no unsupported keyword), tool by tool;
//   - the Gemini export has no OBJECT with empty properties and only Type
//     enum names;
//   - each SDK client sends the tools unchanged (a stub fetch answers).
// With CI set, a missing `go` fails the suite instead of skipping it.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import OpenAI from 'openai';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, Type } from '@google/genai';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const jsonDialects = ['openai', 'openai_strict', 'responses', 'responses_strict', 'anthropic'];

// What the ports present unchanged although it is not JSON Schema: NeMo's
// PlaceOrderTool says "list" and "float" (docs/decisions.md).
const notJSONSchema = ['default/PlaceOrderTool', 'restaurant/PlaceOrderTool'];
// The one tool no strict export can take: an open map (apn_settings).
const cannotBeStrict = ['tau2_telecom/set_apn_settings'];

let out; // the exports' directory
let skip = ''; // why the suite cannot run here (never under CI)
let index;

function haveGo() {
  return spawnSync('go', ['version'], { stdio: 'ignore' }).status === 0;
}

before(() => {
  if (!haveGo()) {
    if (process.env.CI) throw new Error('go is not on PATH: the suite must run under CI');
    skip = 'go is not on PATH';
    return;
  }
  out = mkdtempSync(join(tmpdir(), 'providers-exports-'));
  execFileSync('go', ['run', './examples/providers', '-out', out], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
  index = load('index.json');
});

after(() => { if (out) rmSync(out, { recursive: true, force: true }); });

function load(name) { return JSON.parse(readFileSync(join(out, name), 'utf8')); }
function exportOf(domain, dialect) { return load(`${domain}.${dialect}.json`); }

// fn and params of one definition of a JSON Schema dialect.
function definition(dialect, tool) {
  if (dialect.startsWith('openai')) return { name: tool.function.name, params: tool.function.parameters, strict: tool.function.strict };
  if (dialect.startsWith('responses')) return { name: tool.name, params: tool.parameters, strict: tool.strict };
  return { name: tool.name, params: tool.input_schema };
}

test('every domain is exported in every dialect', (t) => {
  if (skip) return t.skip(skip);
  assert.deepEqual(index.dialects, [...jsonDialects, 'gemini']);
  assert.ok(index.domains.length >= 9, `only ${index.domains.length} domains`);
  for (const d of index.domains) {
    for (const dialect of jsonDialects) assert.ok(exportOf(d, dialect).length > 0, `${d}.${dialect}`);
    assert.ok(exportOf(d, 'gemini').functionDeclarations.length > 0, `${d}.gemini`);
  }
});

// ---- tsc against the SDKs' own types ----

// TypeScript source for a Gemini schema: type names become Type enum
// members (Type["OBJECT"]), which tsc refuses for any name the enum lacks.
function geminiSchemaTS(s) {
  const parts = [];
  for (const [k, v] of Object.entries(s)) {
    let src;
    if (k === 'type') src = `Type[${JSON.stringify(v)}]`;
    else if (k === 'properties') src = `{${Object.entries(v).map(([n, sub]) => `${JSON.stringify(n)}: ${geminiSchemaTS(sub)}`).join(', ')}}`;
    else if (k === 'items') src = geminiSchemaTS(v);
    else if (k === 'anyOf') src = `[${v.map(geminiSchemaTS).join(', ')}]`;
    else src = JSON.stringify(v);
    parts.push(`${JSON.stringify(k)}: ${src}`);
  }
  return `{${parts.join(', ')}}`;
}

function geminiToolTS(tool) {
  const decls = tool.functionDeclarations.map((d) => {
    const { parameters, ...rest } = d;
    const head = JSON.stringify(rest).slice(0, -1);
    return parameters ? `${head}, "parameters": ${geminiSchemaTS(parameters)}}` : `${head}}`;
  });
  return `{"functionDeclarations": [${decls.join(', ')}]}`;
}

// The TypeScript module that types one export as the SDK's tools and
// request params.
function moduleTS(dialect, data) {
  const lit = JSON.stringify(data);
  switch (dialect) {
    case 'openai': case 'openai_strict':
      return `import OpenAI from 'openai';
export const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = ${lit};
export const params: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], tools };
`;
    case 'responses': case 'responses_strict':
      return `import OpenAI from 'openai';
export const tools: OpenAI.Responses.FunctionTool[] = ${lit};
export const params: OpenAI.Responses.ResponseCreateParamsNonStreaming = { model: 'gpt-4o', input: 'hi', tools };
`;
    case 'anthropic':
      return `import Anthropic from '@anthropic-ai/sdk';
export const tools: Anthropic.Messages.Tool[] = ${lit};
export const params: Anthropic.Messages.MessageCreateParamsNonStreaming = { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }], tools };
`;
    case 'gemini':
      return `import { Type, type Tool, type GenerateContentParameters } from '@google/genai';
export const tool: Tool = ${geminiToolTS(data)};
export const params: GenerateContentParameters = { model: 'gemini-2.5-flash', contents: 'hi', config: { tools: [tool] } };
`;
  }
  throw new Error(dialect);
}

// Controls: shapes the SDK types must refuse, so the check has teeth.
const controls = {
  'control_gemini_lowercase': moduleTS('gemini', { functionDeclarations: [{ name: 'f', description: 'F.', parameters: { type: 'object', properties: { a: { type: 'string' } } } }] }),
  'control_gemini_int64_number': moduleTS('gemini', { functionDeclarations: [{ name: 'f', description: 'F.', parameters: { type: 'OBJECT', properties: { a: { type: 'STRING', maxLength: 80 } } } }] }),
  'control_responses_without_strict': moduleTS('responses', [{ type: 'function', name: 'f', description: 'F.', parameters: { type: 'object', properties: {} } }]),
  'control_anthropic_openai_shape': moduleTS('anthropic', [{ type: 'function', function: { name: 'f', parameters: { type: 'object' } } }]),
};

test('tsc: every export type-checks as the SDKs\' tools and request params; the controls do not', (t) => {
  if (skip) return t.skip(skip);
  const dir = join(here, `.tscheck-${process.pid}`); // inside the suite, so node_modules resolves
  mkdirSync(dir, { recursive: true });
  try {
    const files = [];
    for (const d of index.domains) {
      for (const dialect of [...jsonDialects, 'gemini']) {
        const f = `${d}.${dialect}.ts`;
        writeFileSync(join(dir, f), moduleTS(dialect, exportOf(d, dialect)));
        files.push(f);
      }
    }
    for (const [name, src] of Object.entries(controls)) {
      writeFileSync(join(dir, `${name}.ts`), src);
      files.push(`${name}.ts`);
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'nodenext', moduleResolution: 'nodenext', skipLibCheck: true, types: [] },
      files,
    }));
    const tsc = join(here, 'node_modules', '.bin', 'tsc');
    const r = spawnSync(tsc, ['-p', join(dir, 'tsconfig.json'), '--pretty', 'false', '--noErrorTruncation'], { encoding: 'utf8' });
    const errors = (r.stdout + r.stderr).split('\n').filter((l) => /error TS\d+/.test(l));
    const byFile = new Map();
    for (const line of errors) {
      const file = line.split('(')[0].split('/').pop();
      byFile.set(file, [...(byFile.get(file) ?? []), line]);
    }
    const bad = [...byFile.keys()].filter((f) => !f.startsWith('control_'));
    assert.deepEqual(bad, [], `exports tsc refuses:\n${bad.map((f) => byFile.get(f).slice(0, 3).join('\n')).join('\n')}`);
    for (const name of Object.keys(controls)) {
      assert.ok(byFile.has(`${name}.ts`), `tsc accepted ${name}: the check has no teeth`);
    }
    assert.equal(files.length, index.domains.length * 6 + Object.keys(controls).length);
  } finally {
    if (!process.env.KEEP_TSCHECK) rmSync(dir, { recursive: true, force: true });
  }
});

// ---- ajv, draft 2020-12 ----

test('ajv (draft 2020-12) compiles every parameters schema of every JSON Schema dialect', (t) => {
  if (skip) return t.skip(skip);
  let compiled = 0;
  const invalid = new Set();
  const ajv = new Ajv2020({ strict: true, strictTypes: false, allErrors: true });
  for (const d of index.domains) {
    for (const dialect of jsonDialects) {
      for (const tool of exportOf(d, dialect)) {
        const { name, params } = definition(dialect, tool);
        if (!ajv.validateSchema(params)) {
          invalid.add(`${d}/${name}`);
          continue;
        }
        ajv.compile(params); // strict: unknown keywords throw
        compiled++;
      }
    }
  }
  assert.deepEqual([...invalid].sort(), notJSONSchema, 'only the originals presented as they are may fail');
  assert.ok(compiled > 500, `${compiled} schemas compiled`);
});

// ---- OpenAI strict mode ----

const strictUnsupported = ['minLength', 'maxLength', 'minProperties', 'maxProperties', 'patternProperties', 'propertyNames',
  'unevaluatedProperties', 'unevaluatedItems', 'uniqueItems', 'contains', 'minContains', 'maxContains'];

const jsonTypes = ['string', 'number', 'integer', 'boolean', 'object', 'array', 'null'];

// strictProblems lists where s breaks OpenAI's strict-mode rules.
function strictProblems(s, at, problems) {
  for (const k of strictUnsupported) if (k in s) problems.push(`${at}: ${k} (unsupported in strict mode)`);
  if (!('type' in s) && !('anyOf' in s)) problems.push(`${at}: no type`);
  const types = [s.type].flat().filter((x) => x !== undefined);
  for (const x of types) if (!jsonTypes.includes(x)) problems.push(`${at}: type ${x} is not a JSON Schema type`);
  if (types.includes('object')) {
    if (s.additionalProperties !== false) problems.push(`${at}: additionalProperties is not false`);
    const props = Object.keys(s.properties ?? {});
    const required = s.required ?? [];
    if (props.length !== required.length || props.some((p) => !required.includes(p))) {
      problems.push(`${at}: required ${JSON.stringify(required)} is not every property ${JSON.stringify(props)}`);
    }
    for (const [k, sub] of Object.entries(s.properties ?? {})) strictProblems(sub, `${at}.${k}`, problems);
  }
  if (types.includes('array')) {
    if (!s.items) problems.push(`${at}: a list without items`);
    else strictProblems(s.items, `${at}.items`, problems);
  }
  for (const [i, alt] of (s.anyOf ?? []).entries()) strictProblems(alt, `${at}.anyOf.${i}`, problems);
  return problems;
}

test('strict exports: each tool strict or "strict": false; the strict ones meet strict mode\'s rules', (t) => {
  if (skip) return t.skip(skip);
  let strict = 0;
  for (const dialect of ['openai_strict', 'responses_strict']) {
    const notStrict = [];
    for (const d of index.domains) {
      for (const tool of exportOf(d, dialect)) {
        const def = definition(dialect, tool);
        if (def.strict === false) { notStrict.push(`${d}/${def.name}`); continue; }
        assert.equal(def.strict, true, `${dialect} ${d}/${def.name}: strict is ${def.strict}`);
        assert.deepEqual(strictProblems(def.params, def.name, []), [], `${dialect} ${d}`);
        strict++;
      }
    }
    assert.deepEqual(notStrict.sort(), [...cannotBeStrict, ...notJSONSchema].sort(), dialect);
  }
  assert.ok(strict > 200, `${strict} strict tools`);
});

test('non-strict Responses exports say "strict": false; Chat Completions ones leave it out', (t) => {
  if (skip) return t.skip(skip);
  for (const d of index.domains) {
    for (const tool of exportOf(d, 'responses')) assert.equal(tool.strict, false, `${d}/${tool.name}`);
    for (const tool of exportOf(d, 'openai')) assert.equal(tool.function.strict, undefined, `${d}/${tool.function.name}`);
  }
});

// ---- Gemini ----

function geminiProblems(s, at, problems) {
  if ('type' in s && !Object.values(Type).includes(s.type)) problems.push(`${at}: type ${s.type} is not in the Type enum`);
  if (s.type === Type.TYPE_UNSPECIFIED) problems.push(`${at}: TYPE_UNSPECIFIED`);
  if ('properties' in s && Object.keys(s.properties).length === 0) problems.push(`${at}: empty properties`);
  if ('properties' in s && s.type !== Type.OBJECT) problems.push(`${at}: properties on ${s.type}`);
  for (const r of s.required ?? []) if (!(r in (s.properties ?? {}))) problems.push(`${at}: required ${r} is not a property`);
  for (const k of ['minItems', 'maxItems', 'minLength', 'maxLength']) {
    if (k in s && typeof s[k] !== 'string') problems.push(`${at}: ${k} is not an int64 string`);
  }
  for (const [k, sub] of Object.entries(s.properties ?? {})) geminiProblems(sub, `${at}.${k}`, problems);
  if (s.items) geminiProblems(s.items, `${at}.items`, problems);
  for (const [i, alt] of (s.anyOf ?? []).entries()) geminiProblems(alt, `${at}.anyOf.${i}`, problems);
  return problems;
}

test('Gemini: Type enum names, no OBJECT with empty properties, no parameters for tools without any', (t) => {
  if (skip) return t.skip(skip);
  let withoutParams = 0;
  for (const d of index.domains) {
    const anthropic = exportOf(d, 'anthropic');
    const decls = exportOf(d, 'gemini').functionDeclarations;
    assert.equal(decls.length, anthropic.length);
    for (const [i, decl] of decls.entries()) {
      const props = Object.keys(anthropic[i].input_schema.properties ?? {});
      if (props.length === 0) {
        assert.equal(decl.parameters, undefined, `${d}/${decl.name}`);
        withoutParams++;
        continue;
      }
      assert.equal(decl.parameters.type, Type.OBJECT);
      assert.deepEqual(geminiProblems(decl.parameters, `${d}/${decl.name}`, []), []);
    }
  }
  assert.ok(withoutParams >= 29, `${withoutParams} tools without parameters`);
});

// ---- the SDK clients send the tools as they are ----

// stubFetch records each request body and answers with reply.
function stubFetch(bodies, reply) {
  return async (url, init) => {
    bodies.push(JSON.parse(typeof init.body === 'string' ? init.body : await new Response(init.body).text()));
    return new Response(JSON.stringify(reply), { status: 200, headers: { 'content-type': 'application/json' } });
  };
}

test('each SDK client sends a domain\'s tools unchanged', async (t) => {
  if (skip) return t.skip(skip);
  const domain = 'tau2_telecom';
  const bodies = [];

  const openai = new OpenAI({ apiKey: 'test', fetch: stubFetch(bodies, { id: 'c', object: 'chat.completion', created: 0, model: 'gpt-4o', choices: [] }) });
  const chatTools = exportOf(domain, 'openai_strict');
  await openai.chat.completions.create({ model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], tools: chatTools });
  assert.deepEqual(bodies.pop().tools, chatTools);

  const responses = new OpenAI({ apiKey: 'test', fetch: stubFetch(bodies, { id: 'r', object: 'response', output: [] }) });
  const respTools = exportOf(domain, 'responses');
  await responses.responses.create({ model: 'gpt-4o', input: 'hi', tools: respTools });
  assert.deepEqual(bodies.pop().tools, respTools);

  const anthropic = new Anthropic({ apiKey: 'test', fetch: stubFetch(bodies, { id: 'm', type: 'message', role: 'assistant', content: [], model: 'x', stop_reason: 'end_turn', usage: { input_tokens: 0, output_tokens: 0 } }) });
  const anthTools = exportOf(domain, 'anthropic');
  await anthropic.messages.create({ model: 'claude-sonnet-4-5', max_tokens: 16, messages: [{ role: 'user', content: 'hi' }], tools: anthTools });
  assert.deepEqual(bodies.pop().tools, anthTools);

  const realFetch = globalThis.fetch;
  globalThis.fetch = stubFetch(bodies, { candidates: [] });
  try {
    const genai = new GoogleGenAI({ apiKey: 'test' });
    const tool = exportOf(domain, 'gemini');
    await genai.models.generateContent({ model: 'gemini-2.5-flash', contents: 'hi', config: { tools: [tool] } });
    const sent = bodies.pop();
    assert.deepEqual(sent.tools, [tool]);
  } finally {
    globalThis.fetch = realFetch;
  }
});
