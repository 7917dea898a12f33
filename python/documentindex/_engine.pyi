"""Type stubs of the Rust extension module (crates/docindex-py)."""

from os import PathLike
from typing import Callable, List, Optional, Union

__version__: str

class DocumentIndexError(Exception): ...
class InputError(DocumentIndexError): ...
class ProviderError(DocumentIndexError): ...
class ResourceError(DocumentIndexError): ...
class InternalError(DocumentIndexError): ...
class Cancelled(DocumentIndexError): ...

def default_library_dir() -> str: ...

class Engine:
    def __init__(self, path: Union[str, PathLike[str]], model: Optional[str] = None) -> None: ...
    @property
    def path(self) -> str: ...
    @property
    def model(self) -> Optional[str]: ...
    def index(
        self,
        paths: List[str],
        on_event: Optional[Callable[[str, str], None]] = None,
        embed: bool = True,
    ) -> str: ...
    def list(self) -> str: ...
    def document(self, doc: str) -> str: ...
    def remove(self, doc: str) -> bool: ...
    def search(
        self,
        query: str,
        doc: Optional[str] = None,
        company: Optional[str] = None,
        fiscal_year: Optional[int] = None,
        limit: int = 10,
        use_model: bool = False,
    ) -> str: ...
    def ask(
        self,
        question: str,
        doc: Optional[str] = None,
        company: Optional[str] = None,
        fiscal_year: Optional[int] = None,
        max_iterations: Optional[int] = None,
        on_event: Optional[Callable[[str, str], None]] = None,
    ) -> str: ...
    def provenance(
        self,
        topic: str,
        doc: Optional[str] = None,
        company: Optional[str] = None,
        fiscal_year: Optional[int] = None,
        threshold: Optional[float] = None,
        use_model: bool = True,
        on_event: Optional[Callable[[str, str], None]] = None,
    ) -> str: ...
    def cancel(self) -> None: ...
