"""Words of text drawn inside PDF figures keep their spaces and line breaks.

Many SEC-filed contracts (EDGAR conversions) draw their body text inside form
XObjects, which pdfminer reports as figures of loose characters. unstructured's
"fast" strategy joins those characters with nothing between lines, so a clause
read "either company may terminatethis Agreement" and "without theprior written
consent ofAT&T": quotes a lawyer cannot read and sentences the reviewer cannot
parse. pdfminer lays out figure text like page text when `all_texts` is set;
unstructured 0.27 builds its LAParams without it and offers no setting, so
`install()` wraps the one function that builds them. Page text is unchanged.
"""

from __future__ import annotations

_installed = False


def install() -> None:
    """Idempotent; call before the first PDF partition in every process."""
    global _installed
    if _installed:
        return
    from pdfminer.converter import PDFPageAggregator
    from pdfminer.layout import LAParams
    from unstructured.partition.pdf_image import pdfminer_utils

    def init_pdfminer(pdfminer_config=None):
        rsrcmgr = pdfminer_utils.CustomPDFResourceManager()
        kwargs = pdfminer_config.model_dump(exclude_none=True) if pdfminer_config else {}
        device = PDFPageAggregator(rsrcmgr, laparams=LAParams(all_texts=True, **kwargs))
        return device, pdfminer_utils.CustomPDFPageInterpreter(rsrcmgr, device)

    pdfminer_utils.init_pdfminer = init_pdfminer
    _installed = True
