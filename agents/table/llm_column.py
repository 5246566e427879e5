"""One sub-agent's work on a reviewer's own question: one document's passages, one call to the sub model.

The document's best passages for the question (the room's hybrid search within the document) go to one call.
The model's quote is looked up in the document text: an answer whose quote is not found there is kept but
marked unverified (its quote says so), never shown as verified. agents.table.column_graph runs these for every
document of a run, delegated by the root like any review.
"""

from __future__ import annotations

import json
import secrets
from dataclasses import dataclass

from pydantic import BaseModel, ValidationError

from core.text import locate_quote

from agents.llm.caller import Completion, LLMCaller, OutputInvalid
from agents.llm.jsonout import first_json_object
from agents.llm.prompts import load_template
from agents.table.answers import Answer, AnswerStatus, Quote
from agents.table.columns import AnswerType, Column

NOT_FOUND = "not found"


class ColumnReply(BaseModel):
    answer: str
    passage: int = 0
    quote: str = ""


def parse_reply(comp: Completion, passages: int, kind: AnswerType) -> ColumnReply:
    text = comp.content.strip()
    try:
        obj = json.loads(text)
    except json.JSONDecodeError:
        obj = first_json_object(text)
    if not isinstance(obj, dict):
        raise OutputInvalid("the reply is not a JSON object")
    try:
        out = ColumnReply.model_validate(obj)
    except ValidationError as e:
        raise OutputInvalid(f"the JSON does not match the schema: {e.errors()[:3]}") from None
    out.answer = " ".join(out.answer.split())
    if kind is AnswerType.yes_no and out.answer.lower() not in ("yes", "no", NOT_FOUND):
        raise OutputInvalid('answer must be "yes", "no" or "not found"')
    if out.answer.lower() != NOT_FOUND and not (1 <= out.passage <= passages):
        raise OutputInvalid(f"passage must be one of 1..{passages}")
    return out


def blocks(quotes: list[Quote], nonce: str) -> str:
    return "\n\n".join(f"<<<DATA passage={i} page={q.page} nonce={nonce}>>>\n{q.text}\n<<<END DATA nonce={nonce}>>>"
                       for i, q in enumerate(quotes, 1))


@dataclass
class Asked:
    """A sub-agent's answer with what it cost (for the run's token accounting)."""

    answer: Answer
    tokens_in: int = 0
    tokens_out: int = 0
    calls: int = 0


async def answer_document(caller: LLMCaller, column: Column, document_id: str, path: str, text: str,
                          passages: list[Quote]) -> Asked:
    if not passages:
        return Asked(Answer(document_id=document_id, column_id=column.id, status=AnswerStatus.not_found,
                            value="no" if column.type is AnswerType.yes_no else ""))
    nonce = secrets.token_hex(6)
    messages = load_template("table_column").render(
        answer_type=column.type.value, nonce=nonce, question=column.description, document_path=path,
        data_blocks=blocks(passages, nonce))
    comp = await caller.call(messages, parse=lambda c: parse_reply(c, len(passages), column.type))
    reply: ColumnReply = comp.parsed
    cost = {"tokens_in": comp.prompt_tokens, "tokens_out": comp.completion_tokens, "calls": comp.calls}
    if reply.answer.lower() == NOT_FOUND:
        return Asked(Answer(document_id=document_id, column_id=column.id, status=AnswerStatus.not_found,
                            value="no" if column.type is AnswerType.yes_no else ""), **cost)
    src = passages[reply.passage - 1]
    loc = locate_quote(reply.quote, src.text) if reply.quote.strip() else None
    if loc is not None and text[src.start + loc[0]:src.start + loc[1]].split() == reply.quote.split():
        quote = Quote(text=text[src.start + loc[0]:src.start + loc[1]], start=src.start + loc[0],
                      end=src.start + loc[1], page=src.page, verified=True)
    else:  # the model's words are not in the passage it cited: shown, but never as verified
        quote = Quote(text=reply.quote, start=src.start, end=src.end, page=src.page, verified=False)
    value = reply.answer.lower() if column.type is AnswerType.yes_no else reply.answer
    return Asked(Answer(document_id=document_id, column_id=column.id, status=AnswerStatus.answered, value=value,
                        quotes=[quote], confidence=1.0 if quote.verified else 0.0), **cost)
