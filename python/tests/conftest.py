"""Fixtures: the repository's filings (never ../shared), and libraries indexed once per
session from them with the installed package."""

import os
from pathlib import Path

import pytest

from documentindex import DocumentIndexer, Library

FIXTURES = Path(
    os.environ.get("DOCINDEX_FIXTURES", Path(__file__).resolve().parents[2] / "tests" / "fixtures")
)
APPLE = FIXTURES / "apple_10-K_FY2024_0000320193-24-000123.html"
MICROSOFT_PDF = FIXTURES / "pdf" / "MICROSOFT_2023_10K.pdf"
NIKE_PDF = FIXTURES / "pdf" / "NIKE_2023_10K.pdf"


@pytest.fixture(scope="session")
def indexer() -> DocumentIndexer:
    return DocumentIndexer()


@pytest.fixture(scope="session")
def apple_text() -> str:
    return APPLE.read_text(encoding="utf-8")


@pytest.fixture(scope="session")
def apple(indexer: DocumentIndexer, apple_text: str):
    """Apple's FY2024 10-K, given as text under the design's own name."""
    return indexer.index_sync(apple_text, doc_name="AAPL_10K_2024")


@pytest.fixture(scope="session")
def microsoft(indexer: DocumentIndexer):
    """Microsoft's FY2023 10-K, a PDF, given by path."""
    return indexer.index_sync(MICROSOFT_PDF)


@pytest.fixture()
def scratch(tmp_path: Path) -> Library:
    return Library(tmp_path / "library")
