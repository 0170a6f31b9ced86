"""Reading the solver's ICCMA 2019 answers back, strictly."""

import re

_EXTENSION = r"\[[^\[\],]*(?:,[^\[\],]+)*\]"
_EXTENSION_LIST = re.compile(rf"\[(?:{_EXTENSION}(?:,{_EXTENSION})*)?\]")


def read_extension(text: str) -> frozenset[str]:
    assert re.fullmatch(_EXTENSION, text), text
    inside = text[1:-1]
    return frozenset(inside.split(",")) if inside else frozenset()


def read_extension_list(text: str) -> list[frozenset[str]]:
    assert _EXTENSION_LIST.fullmatch(text), text
    return [read_extension(match) for match in re.findall(r"\[[^\[\]]*\]", text[1:-1])]
