// The providers' own npm SDKs judge what package tool/schema exports.
// `go run ./cmd/providers` writes every domain of domains in
// every dialect; then
//   - tsc (pinned typescript) type-checks each tool set as the SDKs' typed
//     tool lists and request params (openai's ChatCompletionTool and
//     ResponseCreateParams, @anthropic-ai/sdk's Tool and
//     MessageCreateParams, @google/genai's Tool and GenerateContentParameters
//     with its Type enum), and must refuse the known-bad controls;
//   - ajv (draft 2020-12) compiles every JSON Schema dialect's parameters,
//     every tool of every domain, and every array has items (OpenAI answers
//     400 "array schema missing items" otherwise);
//   - strict exports meet OpenAI's strict-mode rules (every object closed,
//     every property required, no unsupported keyword), tool by tool, and
//     the openai SDK's own strict transform (toStrictJsonSchema) takes each
//     strict tool's parameters as they are;
//   - the Gemini export has no OBJECT without properties and no ARRAY
//     without items at any level, only Type enum names, and
//     propertyOrdering on every object, equal to the order of its
//     properties (the tool's parameter order at the top); the Go-SDK
//     export (gemini_go) is the same with int64 keywords as numbers;
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
import { toStrictJsonSchema } from 'openai/lib/transform';
import Anthropic from '@anthropic-ai/sdk';
import { GoogleGenAI, Type } from '@google/genai';

const here = dirname(fileURLToPath(import.meta.url));
const repo = join(here, '..', '..', '..');
const jsonDialects = ['openai', 'openai_strict', 'responses', 'responses_strict', 'anthropic'];

// The tools no strict export can take: an open map (apn_settings), and a
// list without an item schema (NeMo's PlaceOrderTool, whose "list" the
// exports write as an array with items {}).
const cannotBeStrict = ['tau2_telecom/set_apn_settings', 'default/PlaceOrderTool', 'restaurant/PlaceOrderTool'];

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
  execFileSync('go', ['run', './cmd/providers', '-out', out], { cwd: repo, stdio: ['ignore', 'inherit', 'inherit'] });
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
  assert.deepEqual(index.dialects, [...jsonDialects, 'gemini', 'gemini_go']);
  assert.ok(index.domains.length >= 9, `only ${index.domains.length} domains`);
  for (const d of index.domains) {
    for (const dialect of jsonDialects) assert.ok(exportOf(d, dialect).length > 0, `${d}.${dialect}`);
    assert.ok(exportOf(d, 'gemini').functionDeclarations.length > 0, `${d}.gemini`);
    assert.ok(exportOf(d, 'gemini_go').functionDeclarations.length > 0, `${d}.gemini_go`);
  }
});

test('what each dialect changed is reported: NeMo\'s "list" and "float", telecom\'s open map for Gemini', (t) => {
  if (skip) return t.skip(skip);
  for (const d of ['default', 'restaurant']) {
    const changed = exportOf(d, 'changed');
    for (const dialect of jsonDialects) {
      for (const line of ['PlaceOrderTool: items.type (list; written array)', 'PlaceOrderTool: total_price.type (float; written number)']) {
        assert.ok(changed[dialect].includes(line), `${d} ${dialect}: ${line}`);
      }
    }
    assert.ok(changed.gemini.includes('PlaceOrderTool: items (an array without items; written STRING holding JSON text)'), d);
    assert.deepEqual(changed.gemini, load(`${d}.gemini_removed.json`));
  }
  assert.ok(exportOf('tau2_telecom', 'changed').gemini.includes('set_apn_settings: apn_settings (an object without properties; written STRING holding JSON text)'));
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
import { toStrictJsonSchema } from 'openai/lib/transform';
export const tools: OpenAI.Chat.Completions.ChatCompletionTool[] = ${lit};
export const params: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming = { model: 'gpt-4o', messages: [{ role: 'user', content: 'hi' }], tools };
`;
    case 'responses': case 'responses_strict':
      return `import OpenAI from 'openai';
import { toStrictJsonSchema } from 'openai/lib/transform';
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

// arrayProblems lists the arrays of s without an item schema.
function arrayProblems(s, at, problems) {
  if ([s.type].flat().includes('array') && !('items' in s) && !('prefixItems' in s)) problems.push(`${at}: an array without items`);
  for (const [k, sub] of Object.entries(s.properties ?? {})) arrayProblems(sub, `${at}.${k}`, problems);
  if (s.items && typeof s.items === 'object') arrayProblems(s.items, `${at}.items`, problems);
  for (const [i, alt] of (s.anyOf ?? []).entries()) arrayProblems(alt, `${at}.anyOf.${i}`, problems);
  return problems;
}

test('ajv (draft 2020-12) compiles every parameters schema of every JSON Schema dialect', (t) => {
  if (skip) return t.skip(skip);
  let compiled = 0;
  const invalid = new Set();
  const arrays = [];
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
        arrayProblems(params, `${dialect} ${d}/${name}`, arrays);
        compiled++;
      }
    }
  }
  assert.deepEqual([...invalid].sort(), [], 'every tool of every domain is JSON Schema');
  assert.deepEqual(arrays, []);
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

// sortedRequired is s with every "required" list sorted (the SDK's
// transform lists them in property order, the export sorted).
function sortedRequired(s) {
  if (Array.isArray(s)) return s.map(sortedRequired);
  if (!s || typeof s !== 'object') return s;
  const out = {};
  for (const [k, v] of Object.entries(s)) out[k] = k === 'required' && Array.isArray(v) ? [...v].sort() : sortedRequired(v);
  return out;
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
        // The SDK's own transform (what its zod/JSON helpers send) takes
        // the schema as it is: nothing left for it to close or require.
        assert.deepEqual(sortedRequired(toStrictJsonSchema(def.params)), sortedRequired(def.params), `${dialect} ${d}/${def.name}: toStrictJsonSchema changes it`);
        strict++;
      }
    }
    assert.deepEqual(notStrict.sort(), [...cannotBeStrict].sort(), dialect);
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
  if (s.type === Type.OBJECT && Object.keys(s.properties ?? {}).length === 0) problems.push(`${at}: an OBJECT without properties`);
  if (s.type === Type.ARRAY && !s.items) problems.push(`${at}: an ARRAY without items`);
  if ('properties' in s && JSON.stringify(s.propertyOrdering) !== JSON.stringify(Object.keys(s.properties))) {
    problems.push(`${at}: propertyOrdering ${JSON.stringify(s.propertyOrdering)} is not the properties' order ${JSON.stringify(Object.keys(s.properties))}`);
  }
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
      assert.deepEqual(decl.parameters.propertyOrdering, props, `${d}/${decl.name}: the tool's parameter order`);
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

// ---- the Go SDK's Gemini export ----

// int64sAsStrings is a gemini_go schema with its int64 keywords written as
// @google/genai has them.
function int64sAsStrings(v) {
  if (Array.isArray(v)) return v.map(int64sAsStrings);
  if (!v || typeof v !== 'object') return v;
  const out = {};
  for (const [k, x] of Object.entries(v)) {
    out[k] = ['minItems', 'maxItems', 'minLength', 'maxLength', 'minProperties', 'maxProperties'].includes(k) && typeof x === 'number' ? String(x) : int64sAsStrings(x);
  }
  return out;
}

test('gemini_go is the Gemini export with int64 keywords as numbers', (t) => {
  if (skip) return t.skip(skip);
  let numbers = 0;
  for (const d of index.domains) {
    const goExport = exportOf(d, 'gemini_go');
    assert.deepEqual(int64sAsStrings(goExport), exportOf(d, 'gemini'), d);
    numbers += (JSON.stringify(goExport).match(/"(min|max)(Items|Length)":\d/g) ?? []).length;
  }
  assert.ok(numbers > 0, 'some domain has int64 keywords');
});
