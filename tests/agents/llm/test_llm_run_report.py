"""The fallback is visible (issue #20): after a run against open-model behaviour replayed by the local server,
the CLI's run summary and the trace page's view model say which root steps the built-in planner took over
("the root model could not drive step N; the built-in planner delegated batch ...") and which request form
each endpoint ended up with."""

from __future__ import annotations

import re

import pytest
from llm_helpers import ROOT_MODEL, SUB_MODEL
from test_llm_open_models_run import ListingRoot, configure, run

from agents import cli
from agents.runtime.trajectory import trajectory_for
from app.views import trace_view
from devtools import fakeopenai as fo
from devtools.synthroom import room_texts
from devtools.textroom import load_text_room


@pytest.mark.slow
def test_a_stalled_root_is_reported_in_the_summary_and_the_trace(llm_settings, fake, capsys):
    s = configure(llm_settings, fake, ListingRoot())
    load_text_room(s, "seen", room_texts(4, seed=4))
    stats = run(s, "seen")
    assert stats["coverage"]["documents_reviewed"] == 4
    records = trajectory_for(s, "seen-run").read()

    lines = cli.model_lines(s, "seen-run")
    steps = [r for r in records if r.get("type") == "root_step"]
    taken = [r for r in steps if r.get("fallback")]
    assert lines[0] == (f"root steps: {len(steps)}; the root model drove {len(steps) - len(taken)}, the built-in "
                        f"planner 0 alone and {len(taken)} after the model's own calls")
    assert lines[1].startswith("root model could not drive step 2 (it repeated steps without progress); "
                               "built-in planner delegated batch b1")
    root_line = next(x for x in lines if x.startswith(f"request form: root model {ROOT_MODEL}: native tools"))
    # ListingRoot cycles bare JSON, a ```json fence and <tool_call> tags: each form is named
    for form in ("JSON in the text", "fenced JSON in the text", "<tool_call> tags in the text"):
        assert form in root_line
    sub_line = next(x for x in lines if x.startswith(f"request form: sub model {SUB_MODEL}: json_object"))
    assert sub_line.endswith("also sent: json_schema (1)")  # the probe llama-cpp-python refused with its 500

    fb = trace_view.fallback_rows(records)
    assert fb["step"].tolist() == [r["step"] for r in taken]
    assert fb["what happened"].iloc[0] == lines[1]
    table = trace_view.root_steps(records)
    assert table.loc[table["step"] == 2, "decided by"].item() == "model, then built-in planner (no progress)"
    assert table.loc[table["step"] == 0, "decided by"].item() == "root model"
    forms = trace_view.form_rows(records).set_index("agent")
    assert forms.loc["sub", "request form"] == "json_object" and forms.loc["sub", "also sent"] == "json_schema (1)"
    assert forms.loc["root", "request form"] == "native tools"
    assert "<tool_call> tags in the text" in forms.loc["root", "tool calls read from"]
    assert trace_view.drive_caption(records).startswith(f"{len(steps)} root steps: the root model drove ")

    # the CLI prints the planner's note as it happens
    cli._print_event({"mode": "custom", "data": {"event": "root_fallback", "note": lines[1]}})
    assert capsys.readouterr().out.strip() == lines[1]
    fake.assert_clean()


@pytest.mark.slow
def test_a_root_model_that_drove_nothing_says_so(llm_settings, fake):
    s = configure(llm_settings, fake, lambda body: fo.text("I will now review the data room carefully."))
    load_text_room(s, "none", room_texts(2, seed=8))
    run(s, "none")
    records = trajectory_for(s, "none-run").read()
    steps = [r for r in records if r.get("type") == "root_step"]

    lines = cli.model_lines(s, "none-run")
    assert lines[0] == (f"root steps: {len(steps)}; the root model drove 0, the built-in planner {len(steps)} alone "
                        "and 0 after the model's own calls")
    assert lines[1] == ("root model could not drive step 0 (its output was unusable after retries); "
                        "built-in planner delegated batch b1, b2")
    assert f"request form: root model {ROOT_MODEL}: no usable answer ({2 * len(steps)} request(s))" in lines
    assert set(trace_view.root_steps(records)["decided by"]) == {"built-in planner (model output unusable)"}
    assert len(trace_view.fallback_rows(records)) == len(steps)
    assert trace_view.form_rows(records).set_index("agent").loc["root", "request form"] == "none answered usably"
    fake.assert_clean()


def test_an_offline_run_has_no_model_lines(settings):
    from agents.run.harness import run_review
    import asyncio

    load_text_room(settings, "off", room_texts(2, seed=1))
    asyncio.run(run_review(settings, "off", run_id="off-run"))
    records = trajectory_for(settings, "off-run").read()
    assert cli.model_lines(settings, "off-run") == []
    assert trace_view.drive_caption(records) == "" and trace_view.fallback_rows(records).empty
    assert trace_view.form_rows(records).empty
    assert set(trace_view.root_steps(records)["decided by"]) == {"built-in planner"}


@pytest.mark.slow
def test_a_sub_model_with_no_usable_review_is_replaced_per_document_and_said(llm_settings, fake):
    # SmolLM2-135M on the sample room: every sub-agent reply was prose, the breaker stopped the run at 0 % coverage
    s = configure(llm_settings, fake, ListingRoot())
    fake.respond_with(SUB_MODEL, lambda body: fo.text("Sure! Here is my review of the document. It looks fine."))
    load_text_room(s, "prose", room_texts(3, seed=5))
    stats = run(s, "prose")
    assert stats["coverage"]["documents_reviewed"] == stats["coverage"]["documents_total"] == 3
    from agents.store import open_review_store

    findings = open_review_store(s).findings("prose-run")
    assert findings and all(f.agent.endswith("(built-in reviewer)") for f in findings)
    assert all(f.verified for f in findings)
    lines = cli.model_lines(s, "prose-run")
    said = [x for x in lines if x.startswith("document reviews: ")]  # follow-up passes review documents again
    assert len(said) == 1 and re.fullmatch(r"document reviews: (\d+) of \1 done by the built-in reviewer because the "
                                           r"sub model's reply was unusable \(their findings say so in their agent\)",
                                           said[0])
    subs = [r for r in trajectory_for(s, "prose-run").read() if r.get("type") == "sub_call"]
    assert {r["reviewer"] for r in subs} == {"offline"} and all("unusable" in r["fallback"] for r in subs)
    # the memo's scope tells the reader which documents the rules reviewed instead of the model
    store = open_review_store(s)
    scope = next(x for x in store.memo("prose-run").sections if x.key == "scope").text
    listed = scope.split("Reviewed by the built-in reviewer instead of the configured model", 1)[1].split("\n\n")[0]
    from agents.memo import md

    assert sorted(line[2:] for line in listed.splitlines() if line.startswith("- ")) == sorted(
        md(d.path) for d in store.document_status("prose-run"))
    assert set(store.builtin_reviewed("prose-run")) == {d.document_id for d in store.document_status("prose-run")}

    # the setting turns it off: the same replies fail the reviews, and the breaker stops the run as before
    s.harness.sub_fallback_offline = False
    s.harness.breaker_consecutive_failures = 2
    load_text_room(s, "strict", room_texts(3, seed=6))
    with pytest.raises(Exception, match="usable review"):
        run(s, "strict")
