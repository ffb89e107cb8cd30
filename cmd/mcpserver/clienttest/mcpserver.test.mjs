// The official MCP TypeScript SDK's client (@modelcontextprotocol/sdk,
// pinned) drives cmd/mcpserver over stdio, for every domain: it lists
// the tools, calls one with good arguments, one with bad ones (an isError
// result), an unknown tool (a protocol error) and 20 calls in parallel.
// Then the gaps this client found, as it sees them: a 10 MiB argument is
// answered with a bounded error, a malformed line written to the server's
// stdin is answered with -32700 and the session goes on, and the input
// schema of a tool that refuses unknown keys says so.
//
// The server is built once (go build) into a temporary directory. Without
// go the suite is skipped — and fails when CI is set.
import { test, before, after, describe } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';

const repo = fileURLToPath(new URL('../../..', import.meta.url));
const MAX_ECHO = 1000; // tool.MaxEcho

// Per domain: the tool count, how many tools refuse unknown keys (their
// input schema closes the top level), a call with good arguments and what
// its text holds, and a call with bad arguments. (NeMo's waitlist and
// default tools, like the Python, take a missing argument as None and
// succeed; an unknown keyword is what they refuse.)
const domains = {
  coffee: { tools: 5, closed: 4, good: ['get_menu', {}, 'croissant'], bad: ['place_order', { customer: 7 }] },
  tau2_airline: { tools: 15, closed: 14, good: ['CalculateTool', { expression: '2 + 2' }, '4.0'], bad: ['GetUserDetailsTool', {}] },
  tau2_retail: { tools: 17, closed: 16, good: ['CalculateTool', { expression: '2 * 3' }, '6.0'], bad: ['GetOrderDetailsTool', {}] },
  tau2_telecom: { tools: 44, closed: 43, good: ['get_customer_by_id', { customer_id: 'C1001' }, 'john.smith@example.com'], bad: ['get_customer_by_id', {}] },
  eva_airline: {
    tools: 16, closed: 0,
    good: ['GetReservationTool', { confirmation_number: 'ZK3FFW', last_name: 'Rodriguez' }, 'PAX001'],
    bad: ['GetReservationTool', { confirmation_number: 42, last_name: 'Rodriguez' }],
  },
  customer_service: {
    tools: 9, closed: 0,
    good: ['ResolveTicketTool', { account_id: 'A1', issue_summary: 'login', resolution_type: 'fixed', resolution_details: 'reset' }, 'Ticket resolved'],
    bad: ['LookupAccountTool', { account_id: 'nobody' }],
  },
  waitlist: { tools: 4, closed: 2, good: ['GetWaitlistTool', {}, 'total_in_waitlist'], bad: ['JoinWaitListTool', { nickname: 'Ada' }] },
  restaurant: { tools: 3, closed: 1, good: ['GetMenuTool', {}, 'menu'], bad: ['PlaceOrderTool', {}] },
  default: { tools: 7, closed: 5, good: ['GetCityWeatherTool', { city_name: 'Paris' }, 'sunny'], bad: ['GetCityWeatherTool', { city: 'Paris' }] },
};

let dir;
let binary;
let skip = false;

before(() => {
  try {
    execFileSync('go', ['version'], { stdio: 'ignore' });
  } catch (e) {
    if (process.env.CI) throw new Error(`go is needed to build cmd/mcpserver: ${e.message}`);
    skip = 'go not found (set CI to make this a failure)';
    return;
  }
  dir = mkdtempSync(join(tmpdir(), 'mcpserver-clienttest-'));
  binary = join(dir, 'mcpserver');
  execFileSync('go', ['build', '-o', binary, './cmd/mcpserver'], { cwd: repo, stdio: 'inherit' });
});

after(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

// connect starts the server for domain and connects the SDK's client; the
// server's stderr is kept for failure messages.
async function connect(domain) {
  const transport = new StdioClientTransport({ command: binary, args: ['-domain', domain], stderr: 'pipe' });
  let stderr = '';
  transport.stderr?.on('data', (d) => { stderr += d; });
  const client = new Client({ name: 'mcpserver-clienttest', version: '0.0.0' });
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

function text(res) {
  assert.equal(res.content.length, 1);
  assert.equal(res.content[0].type, 'text');
  return res.content[0].text;
}

for (const [domain, want] of Object.entries(domains)) {
  describe(`domain ${domain}`, () => {
    let s;
    before(async (t) => {
      if (skip) return;
      s = await connect(domain);
    });
    after(async () => { await s?.client.close(); });

    test('lists its tools, each with an object input schema', async (t) => {
      if (skip) return t.skip(skip);
      const { tools } = await s.client.listTools();
      assert.equal(tools.length, want.tools, tools.map((x) => x.name).join(', '));
      for (const tl of tools) {
        assert.equal(tl.inputSchema.type, 'object', tl.name);
        assert.ok(tl.description, tl.name);
      }
      const closed = tools.filter((tl) => tl.inputSchema.additionalProperties === false);
      assert.equal(closed.length, want.closed, 'tools whose schema refuses unknown keys');
      assert.ok(tools.some((tl) => tl.name === 'EndConversationTool'));
    });

    test('a call with good arguments succeeds', async (t) => {
      if (skip) return t.skip(skip);
      const [name, args, holds] = want.good;
      const res = await s.client.callTool({ name, arguments: args });
      assert.ok(!res.isError, text(res));
      assert.ok(text(res).includes(holds), text(res));
    });

    test('a call with bad arguments is an isError result', async (t) => {
      if (skip) return t.skip(skip);
      const [name, args] = want.bad;
      const res = await s.client.callTool({ name, arguments: args });
      assert.equal(res.isError, true, text(res));
      assert.match(text(res), /error/);
    });

    test('an unknown tool is a protocol error', async (t) => {
      if (skip) return t.skip(skip);
      await assert.rejects(s.client.callTool({ name: 'no_such_tool', arguments: {} }), (e) => {
        assert.ok(e instanceof McpError, String(e));
        assert.equal(e.code, ErrorCode.InvalidParams);
        assert.match(e.message, /unknown tool/);
        return true;
      });
    });

    test('20 parallel calls each get their own answer', async (t) => {
      if (skip) return t.skip(skip);
      const [name, args, holds] = want.good;
      const [bad, badArgs] = want.bad;
      const calls = Array.from({ length: 20 }, (_, i) => (i % 2 === 0
        ? s.client.callTool({ name, arguments: args })
        : s.client.callTool({ name: bad, arguments: badArgs })));
      const results = await Promise.all(calls);
      results.forEach((res, i) => {
        if (i % 2 === 0) {
          assert.ok(!res.isError && text(res).includes(holds), `call ${i}: ${text(res)}`);
        } else {
          assert.equal(res.isError, true, `call ${i}: ${text(res)}`);
        }
      });
    });
  });
}

describe('gaps the official client found', () => {
  let s;
  before(async () => {
    if (skip) return;
    s = await connect('coffee');
  });
  after(async () => { await s?.client.close(); });

  const big = 'x'.repeat(10 << 20);

  test('a 10 MiB id not found is answered with a bounded error', async (t) => {
    if (skip) return t.skip(skip);
    const res = await s.client.callTool({ name: 'order_status', arguments: { order_id: big } });
    assert.equal(res.isError, true);
    assert.ok(text(res).length < 4 * MAX_ECHO, `${text(res).length} bytes`);
    assert.match(text(res), /^\{"status":"error","error_type":"not_found","message":"Order x+\.\.\.x+ not found"\}$/);
  });

  test('a 10 MiB unknown key is answered with a bounded validation error', async (t) => {
    if (skip) return t.skip(skip);
    const res = await s.client.callTool({ name: 'order_status', arguments: { order_id: 'ORD-1', [big]: 1 } });
    assert.equal(res.isError, true);
    assert.ok(text(res).length < 4 * MAX_ECHO, `${text(res).length} bytes`);
    assert.match(text(res), /"type":"extra_forbidden"/);
  });

  test('~9 MiB of small unknown keys is answered with at most 100 issues and a count of the rest', async (t) => {
    if (skip) return t.skip(skip);
    const args = { order_id: 'ORD-1' };
    for (let i = 0; i < 800000; i++) args[`k${i}`] = 0;
    const res = await s.client.callTool({ name: 'order_status', arguments: args });
    assert.equal(res.isError, true);
    const details = JSON.parse(text(res)).details;
    assert.equal(details.length, 101);
    assert.deepEqual(details[100], { field: '', error: '799900 more issues not shown', type: 'too_many_issues' });
    assert.ok(text(res).length < 20000, `${text(res).length} bytes`);
  });

  test('a 10 MiB unknown tool name is a bounded protocol error', async (t) => {
    if (skip) return t.skip(skip);
    await assert.rejects(s.client.callTool({ name: big, arguments: {} }), (e) => {
      assert.equal(e.code, ErrorCode.InvalidParams);
      assert.ok(e.message.length < 2 * MAX_ECHO, `${e.message.length} bytes`);
      return true;
    });
    const res = await s.client.callTool({ name: 'get_menu', arguments: {} });
    assert.ok(!res.isError, 'the session goes on');
  });

  test('a malformed line is answered with -32700 (id null) and the session goes on', async (t) => {
    if (skip) return t.skip(skip);
    const child = s.transport._process; // the SDK's child process: write the raw line ourselves
    assert.ok(child?.stdin, 'the transport exposes its child process');
    const replies = [];
    let buf = '';
    const tap = (d) => {
      buf += d;
      let i;
      while ((i = buf.indexOf('\n')) >= 0) {
        replies.push(buf.slice(0, i));
        buf = buf.slice(i + 1);
      }
    };
    child.stdout.on('data', tap);
    const clientErrors = [];
    s.client.onerror = (e) => clientErrors.push(e); // the SDK's schema refuses id null; it reports, and goes on
    try {
      for (const [line, code] of [['not json', -32700], ['{"jsonrpc":"2.0","id":9,"method":"tools/list"', -32700], ['{"hello":1}', -32600]]) {
        replies.length = 0;
        child.stdin.write(line + '\n');
        const deadline = Date.now() + 5000;
        let reply;
        while (!(reply = replies.map((l) => JSON.parse(l)).find((m) => m.error)) && Date.now() < deadline) {
          await new Promise((r) => setTimeout(r, 20));
        }
        assert.ok(reply, `no error reply to ${line}\nserver stderr: ${s.stderr()}`);
        assert.deepEqual({ jsonrpc: reply.jsonrpc, id: reply.id, code: reply.error.code }, { jsonrpc: '2.0', id: null, code }, line);
      }
    } finally {
      child.stdout.off('data', tap);
    }
    assert.equal(child.exitCode, null, 'the server is still running');
    const res = await s.client.callTool({ name: 'get_menu', arguments: {} });
    assert.ok(!res.isError && text(res).includes('croissant'), 'the session goes on');
    const { tools } = await s.client.listTools();
    assert.equal(tools.length, 5);
  });

  test('a tool whose schema is closed refuses an unknown key; an open one takes it', async (t) => {
    if (skip) return t.skip(skip);
    const { tools } = await s.client.listTools();
    for (const tl of tools) {
      const res = await s.client.callTool({ name: tl.name, arguments: { an_unknown_key: 1 } });
      const refused = res.isError === true && text(res).includes('"field":"an_unknown_key"') && text(res).includes('extra_forbidden');
      assert.equal(refused, tl.inputSchema.additionalProperties === false, `${tl.name}: ${text(res)}`);
    }
  });
});
