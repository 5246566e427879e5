"""Keep unstructured's text heuristics off the network.

unstructured 0.27 classifies paragraphs of TXT/HTML/DOCX/PPTX/XLSX with
spaCy (`unstructured.nlp.tokenize._get_nlp`), and when the `en_core_web_sm`
model is not installed it downloads and pip-installs it at run time. We may
not download anything at run time, and the only PyPI copies of that model are
third-party re-uploads, so instead we hand unstructured a pipeline built from
the installed `spacy` package alone: `spacy.blank("en")` plus the rule-based
`sentencizer`.

What that changes: sentence counts are rule-based (fine for the heuristics),
and there is no POS tagger, so `contains_verb` is always False. A one-sentence
paragraph therefore is classified as Title/Text instead of NarrativeText. The
extracted text is unaffected; only element categories shift, and our chunker
merges short title sections anyway (ingest.parsing.chunking). PDF "fast" partitioning
does not use these heuristics at all.

If a real en_core_web_sm is installed, it is used instead.
"""

from __future__ import annotations

_installed = False


def install() -> None:
    """Idempotent; call before the first partition in every process."""
    global _installed
    if _installed:
        return
    import spacy
    from unstructured.nlp import tokenize

    try:
        nlp = spacy.load("en_core_web_sm", exclude=["ner", "lemmatizer", "attribute_ruler"])
    except OSError:  # model package not installed: the normal case here
        nlp = spacy.blank("en")
        nlp.add_pipe("sentencizer")

    def _get_nlp():
        return nlp

    tokenize._get_nlp = _get_nlp  # looked up at call time by tokenize._run_pipeline
    for fn in (tokenize._process_cached, tokenize.word_tokenize, tokenize.pos_tag, tokenize._tokenize_for_cache):
        fn.cache_clear()
    _installed = True
