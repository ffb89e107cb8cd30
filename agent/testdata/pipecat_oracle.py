"""Oracle for agent's context golden files: drives pipecat's own LLMContext
and LLMContextAggregatorPair (pipecat-ai==1.6.0, see requirements.txt) with
the frames pipecat's OpenAI service sends for the model outputs in
context_cases.json, and writes what the context holds.

For each case it writes context/<name>.jsonl (one message a line, as
json.dumps(message, ensure_ascii=False)) and context/<name>.history.txt
(str() of the message list: what get_context_history carries).

    python3 -m venv /tmp/pcvenv && /tmp/pcvenv/bin/pip install -r requirements.txt
    /tmp/pcvenv/bin/python pipecat_oracle.py   # from agent/testdata

Frames per model response, in the order the OpenAI service sends them
(services/openai/base_llm.py process_frame; services/llm_service.py
run_function_calls and _run_function_call): LLMFullResponseStartFrame, the
text as LLMTextFrames, LLMFullResponseEndFrame (pushed when _process_context
returns, before the call tasks run), FunctionCallsStartedFrame, one
FunctionCallInProgressFrame per call (cancel_on_interruption=True, NeMo's
register_schema_tools_to_llm default), then the results
(FunctionCallResultFrame) in the case's answer order, or
FunctionCallCancelFrame for a cancelled call. A user turn is added as the
user aggregator adds it, {"role": "user", "content": text}, through
LLMMessagesAppendFrame.
"""

import asyncio
import json
import os
import sys
import uuid

from pipecat.frames.frames import (
    FunctionCallCancelFrame,
    FunctionCallFromLLM,
    FunctionCallInProgressFrame,
    FunctionCallResultFrame,
    FunctionCallsStartedFrame,
    LLMFullResponseEndFrame,
    LLMFullResponseStartFrame,
    LLMMessagesAppendFrame,
    LLMTextFrame,
)
from pipecat.processors.aggregators.llm_context import LLMContext
from pipecat.processors.aggregators.llm_response_universal import LLMContextAggregatorPair
from pipecat.tests.utils import SleepFrame, run_test

HERE = os.path.dirname(os.path.abspath(__file__))
PAUSE = 0.02  # lets each frame be processed before a system frame jumps the queue


def frames_for(case, context):
    frames = []
    for turn in case["turns"]:
        frames += [LLMMessagesAppendFrame(messages=[{"role": "user", "content": turn["user"]}], run_llm=False)]
        for resp in turn["responses"]:
            frames.append(LLMFullResponseStartFrame())
            frames += [LLMTextFrame(t) for t in resp.get("text", [])]
            frames.append(LLMFullResponseEndFrame())
            calls = resp.get("calls", [])
            if not calls:
                frames.append(SleepFrame(PAUSE))
                continue
            group = str(uuid.uuid4())
            parsed = []
            for c in calls:
                raw = c["arguments"] or "{}"
                parsed.append(json.loads(raw))  # base_llm.py: json.loads(arguments)
            frames.append(SleepFrame(PAUSE))
            frames.append(
                FunctionCallsStartedFrame(
                    function_calls=[
                        FunctionCallFromLLM(function_name=c["name"], tool_call_id=c["id"], arguments=a, context=context)
                        for c, a in zip(calls, parsed)
                    ]
                )
            )
            frames.append(SleepFrame(PAUSE))
            for c, a in zip(calls, parsed):
                frames.append(
                    FunctionCallInProgressFrame(
                        function_name=c["name"],
                        tool_call_id=c["id"],
                        arguments=a,
                        cancel_on_interruption=True,
                        group_id=group,
                    )
                )
            frames.append(SleepFrame(PAUSE))
            by_id = {c["id"]: (c, a) for c, a in zip(calls, parsed)}
            for cid in resp.get("answer_order", [c["id"] for c in calls]):
                c, a = by_id[cid]
                if c.get("cancelled"):
                    frames.append(FunctionCallCancelFrame(function_name=c["name"], tool_call_id=cid))
                else:
                    frames.append(
                        FunctionCallResultFrame(function_name=c["name"], tool_call_id=cid, arguments=a, result=c["result"])
                    )
                frames.append(SleepFrame(PAUSE))
    return frames


async def run_case(case):
    context = LLMContext(messages=[{"role": "system", "content": case["system"]}])
    pair = LLMContextAggregatorPair(context)
    await run_test(pair.assistant(), frames_to_send=frames_for(case, context))
    return context.get_messages()


async def main():
    with open(os.path.join(HERE, "context_cases.json"), encoding="utf-8") as f:
        cases = json.load(f)
    out = os.path.join(HERE, "context")
    os.makedirs(out, exist_ok=True)
    for case in cases:
        messages = await run_case(case)
        with open(os.path.join(out, case["name"] + ".jsonl"), "w", encoding="utf-8") as f:
            for m in messages:
                f.write(json.dumps(m, ensure_ascii=False) + "\n")
        with open(os.path.join(out, case["name"] + ".history.txt"), "w", encoding="utf-8") as f:
            f.write(str(messages))
        print(case["name"], len(messages), "messages", file=sys.stderr)


if __name__ == "__main__":
    asyncio.run(main())
